import type { Channel, ChannelInput, ChannelOutput } from './contract';
import { defaultAgentSettings } from './agent';
import type { Connection } from './connection';
import type { OperationEvent } from './operations';
import type { TableSummary } from './tables';
import { migrationExamples } from './migration-examples';
import { schemaExamples } from './schema-examples';
import { healthExamples } from './health-examples';
import { itemExamples } from './items-examples';
import { journalExamples } from './journal-examples';
import { tableAdminExamples } from './table-admin-examples';
import { copyExamples } from './copy-examples';
import { exportExamples } from './exports-examples';
import { sqlExamples } from '../sql/examples';
import { sqlAssistExamples } from '../sql/assist-examples';
import { athenaExamples } from './athena-examples';
import { mcpExamples } from './mcp-examples';
import { jobExamples } from './jobs-examples';

/**
 * One realistic call per channel: what docs/API.md shows, and what tests/unit/api-examples
 * checks against the contract's schemas. Adding a channel to the contract without an example
 * here is a compile error, and the docs test then asks for `npx tsx scripts/gen-api-docs.ts`.
 */
export interface ChannelExample<C extends Channel> {
  /** One or two sentences: what the call does, for a person reading docs/API.md. */
  summary: string;
  input: ChannelInput<C>;
  output: ChannelOutput<C>;
  /** Anything the schema cannot say: events that follow, limits, who may call it. */
  notes?: string;
}

export type ChannelExamples = { [C in Channel]: ChannelExample<C> };

const sampleTable: TableSummary = {
  name: 'DynoTableSample',
  status: 'ACTIVE',
  keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
  indexes: [
    {
      name: 'GSI1',
      kind: 'GSI',
      keys: { partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' } },
      projection: 'ALL',
      status: 'ACTIVE',
      itemCount: 9,
    },
  ],
  billingMode: 'PAY_PER_REQUEST',
  itemCount: 14,
  sizeBytes: 3172,
  ttl: { status: 'DISABLED' },
  stream: { enabled: false },
  pointInTimeRecovery: 'DISABLED',
  deletionProtection: false,
  createdAt: '2025-01-07T09:30:00.000Z',
  arn: 'arn:aws:dynamodb:ddblocal:000000000000:table/DynoTableSample',
  tableClass: 'STANDARD',
};

const playgroundConnection: Connection = {
  id: 'playground',
  label: 'Local playground',
  color: '#2da44e',
  kind: 'playground',
  region: 'local',
  endpoint: 'http://127.0.0.1:8123',
  readOnly: false,
  isProduction: false,
};

/** The production connection as the form sends it; saving gives it an id. */
const prodConnectionDraft = {
  label: 'Production (eu-west-1)',
  color: '#cf222e',
  kind: 'profile',
  profile: 'prod-readonly',
  region: 'eu-west-1',
  readOnly: true,
  isProduction: true,
} as const;

const prodConnection: Connection = { id: 'prod-eu', ...prodConnectionDraft };

const runningPlayground = { state: 'running', endpoint: 'http://127.0.0.1:8123', seeded: true } as const;

const sampleTableRef = { connectionId: 'playground', table: 'DynoTableSample' };

const orderKey = { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#o1' } };

const orderItem = {
  ...orderKey,
  total: { N: '129.90' },
  status: { S: 'SHIPPED' },
  createdAt: { S: '2024-11-02T10:15:00Z' },
};

/** orderItem after the edit the update and commit examples make. */
const deliveredOrder = { ...orderItem, status: { S: 'DELIVERED' } };

export const examples: ChannelExamples = {
  'app:info': {
    summary:
      'What DynoTable is running as: version, desktop or browser mode, platform, and whether secrets can be encrypted.',
    input: {},
    output: { version: '0.1.0', mode: 'browser', platform: 'linux', encryptionAvailable: false },
  },
  'app:openExternal': {
    summary:
      "Opens an allow-listed link (AWS console, documentation) in the user's browser. Links off the allow-list are refused.",
    input: { url: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Introduction.html' },
    output: { opened: true },
  },
  'connections:list': {
    summary: 'Every saved connection. Access keys are never part of a connection.',
    input: {},
    output: [playgroundConnection, prodConnection],
  },
  'connections:save': {
    summary: 'Creates (without id) or updates a connection and returns it as stored.',
    input: { connection: prodConnectionDraft },
    output: prodConnection,
    notes:
      'Access keys (kind "keys") are accepted only where they can be encrypted: in browser mode this fails with EncryptionUnavailable.',
  },
  'connections:delete': {
    summary: 'Deletes a connection and its stored keys.',
    input: { connectionId: 'prod-eu' },
    output: { deleted: true },
  },
  'connections:test': {
    summary: 'Tries the connection (lists tables) and answers with a sentence a person understands.',
    input: { connectionId: 'prod-eu' },
    output: {
      ok: true,
      message: 'Connected to eu-west-1 as prod-readonly: 12 tables visible.',
      tableCount: 12,
    },
  },
  'connections:profiles': {
    summary: 'The profiles of the AWS shared config and credentials files, with their kind.',
    input: {},
    output: [
      { name: 'default', kind: 'keys', region: 'eu-west-1' },
      { name: 'prod-readonly', kind: 'sso', region: 'eu-west-1' },
    ],
  },
  'connections:signIn': {
    summary: 'Starts an SSO device sign-in for a profile connection whose session expired.',
    input: { connectionId: 'prod-eu', requestId: 'signin_7Qk2fA9x' },
    output: { started: true },
    notes:
      'Progress and the outcome arrive on the event stream under the requestId. The progress event carries progress.verification: the page to open (url), the code it must show (userCode), and whether the desktop app already opened it (isOpened; browser mode never opens pages on the server).',
  },
  'connections:mfaCode': {
    summary:
      'Answers an MFA prompt: the 6-digit code for an assume-role profile with `mfa_serial`, or `{ "promptId": …, "cancel": true }`.',
    input: { promptId: 'mfa-5d1c7a0e-4b7f-4c52-9a57-0e8f3c2b1a90', code: '123456' },
    output: { received: true },
    notes:
      'When a call needs the profile\'s credentials, main sends an `mfa` event and the call waits: `{"type":"mfa","requestId":"mfa-5d1c7a0e-4b7f-4c52-9a57-0e8f3c2b1a90","seq":0,"mfa":{"serialNumber":"arn:aws:iam::123456789012:mfa/alice","profile":"prod-admin","expiresAt":"2025-01-07T09:35:00.000Z"}}`. The prompt then ends with `done` (answered), `cancelled` or `error` (no answer within 5 minutes: `MfaCodeRequired`), and the waiting call with it. A wrong code fails that call with `AccessDenied`; the next call asks again. The role session is kept in main (memory only) until shortly before it expires, so one code serves every call meanwhile. A prompt that is no longer waiting answers `NotFound`.',
  },
  'playground:status': {
    summary: 'State of the local playground (DynamoDB Local).',
    input: {},
    output: runningPlayground,
  },
  'playground:start': {
    summary:
      'Starts DynamoDB Local (Java 17+) and seeds the sample table on first start; resolves when it answers.',
    input: {},
    output: runningPlayground,
    notes: 'Without Java the state is "unavailable" and message says how to install it.',
  },
  'tables:list': {
    summary:
      'The tables of a connection with key schema, indexes, billing mode, size, TTL, streams and backups.',
    input: { connectionId: 'playground' },
    output: [sampleTable],
  },
  'tables:describe': {
    summary: "One table: the summary and DescribeTable's raw answer.",
    input: sampleTableRef,
    output: {
      summary: sampleTable,
      raw: { TableName: 'DynoTableSample', TableStatus: 'ACTIVE', ItemCount: 14 },
    },
  },
  ...tableAdminExamples,
  ...copyExamples,
  ...exportExamples,
  'ops:cancel': {
    summary: 'Cancels a running operation; it then ends with a `cancelled` event.',
    input: { requestId: 'scan_3b9XkQ2m' },
    output: { cancelled: true },
    notes:
      '`cancelled` is false when nothing runs under that id. Such a cancel is still kept: when it overtook its start call (sent at the same moment, the start still resolving credentials), the operation starts cancelled and ends at once with `cancelled`.',
  },
  'resultsets:window': {
    summary: 'A window of rows of a result set (at most 1000), with the column order to show.',
    input: { resultSetId: 'rs_5f2c9a', offset: 0, limit: 100 },
    output: {
      total: 14,
      offset: 0,
      rows: [orderItem],
      columns: ['PK', 'SK', 'status', 'total', 'createdAt'],
    },
  },
  'resultsets:drop': {
    summary: 'Frees a result set.',
    input: { resultSetId: 'rs_5f2c9a' },
    output: { dropped: true },
  },
  'items:get': {
    summary: 'Reads one item by its full key.',
    input: { ...sampleTableRef, key: orderKey, consistent: true },
    output: { item: orderItem },
  },
  'items:create': {
    summary: 'Creates an item; fails with ConditionalCheckFailedException if one with the same key exists.',
    input: { ...sampleTableRef, item: orderItem },
    output: { item: orderItem },
  },
  'items:delete': {
    summary: 'Deletes an item only if it still equals what the user saw.',
    input: { ...sampleTableRef, key: orderKey, expected: orderItem },
    output: { deleted: true },
  },
  'items:update': {
    summary:
      'Saves an edited item: an UpdateItem of the changed attributes, conditioned on the item still being as it was loaded (a key change becomes one transaction).',
    input: { ...sampleTableRef, seen: orderItem, desired: deliveredOrder },
    output: {
      item: deliveredOrder,
      kind: 'update',
      coverage: { checked: 5, total: 5 },
    },
    notes:
      'If someone changed the item meanwhile the call fails with ConditionalCheckFailedException and details.current holds the item as stored now.',
  },
  'items:commit': {
    summary:
      'Commits staged changes (creates, edits, deletes) in TransactWriteItems batches; reuse the token to retry safely.',
    input: {
      ...sampleTableRef,
      token: 'a1b2c3d4e5f6',
      changes: [
        { id: 'change-1', seen: orderItem, desired: deliveredOrder },
        {
          id: 'change-2',
          seen: null,
          desired: { PK: { S: 'USER#u2' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' } },
        },
      ],
    },
    output: {
      results: [
        { id: 'change-1', status: 'written' },
        { id: 'change-2', status: 'written' },
      ],
      batches: 1,
      committedBatches: 1,
    },
  },
  'agent:getSettings': {
    summary: 'The agent settings of a connection (model, Bedrock region, permission mode, budgets).',
    input: { connectionId: 'playground' },
    // A connection that never saved settings reads the defaults.
    output: defaultAgentSettings,
  },
  'agent:saveSettings': {
    summary: 'Saves the agent settings of a connection.',
    input: { connectionId: 'playground', settings: defaultAgentSettings },
    output: defaultAgentSettings,
  },
  'agent:ask': {
    summary: "Asks the agent a question about the connection's data, on the user's own Bedrock access.",
    input: {
      connectionId: 'playground',
      requestId: 'agent_R4nd0mId',
      question: 'Which users have unprocessed payments?',
    },
    output: { conversationId: 'conv_01' },
    notes: 'Text, tool steps, approvals and usage arrive on the event stream under the requestId.',
  },
  'agent:decide': {
    summary: 'Approves or refuses a step the agent asked permission for.',
    input: { approvalId: 'appr_1', approve: false },
    output: { accepted: true },
  },
  ...mcpExamples,
  ...jobExamples,
  ...migrationExamples,
  ...schemaExamples,
  ...healthExamples,
  ...itemExamples,
  ...journalExamples,
  ...sqlExamples,
  ...sqlAssistExamples,
  ...athenaExamples,
};

/** What a scan looks like on the event stream, in order. */
export const eventExamples: OperationEvent[] = [
  { type: 'page', requestId: 'scan_3b9XkQ2m', seq: 0, resultSetId: 'rs_5f2c9a', added: 14, total: 14 },
  {
    type: 'progress',
    requestId: 'scan_3b9XkQ2m',
    seq: 1,
    progress: { items: 14, pages: 1, consumedCapacity: 0.5, scanned: 14, fraction: 1 },
  },
  {
    type: 'done',
    requestId: 'scan_3b9XkQ2m',
    seq: 2,
    progress: { items: 14, pages: 1, consumedCapacity: 0.5, scanned: 14 },
    value: { resultSetId: 'rs_5f2c9a' },
  },
];
