import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentHandlers } from '../../src/main/ipc/handlers/agent';
import { athenaHandlers } from '../../src/main/ipc/handlers/athena';
import { connectionHandlers } from '../../src/main/ipc/handlers/connections';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { resultSetHandlers } from '../../src/main/ipc/handlers/resultsets';
import { schemaHandlers } from '../../src/main/ipc/handlers/schema';
import { sqlAssistHandlers } from '../../src/main/ipc/handlers/sql-assist';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import {
  type AgentEvent,
  type AgentSettings,
  defaultAgentSettings,
  type Item,
  type OperationEvent,
} from '../../src/shared/ipc';
import { createItemsTable, itemsHarness, useAppClients } from './items-context';
import { type RecordedRequest, type ScriptedTurn, startFakeBedrock } from './fake-bedrock';

export const BEDROCK_SECRET = 'bEdRoCkSeCrEt0123456789abcdefDoNotLeak';

/** The model's usual first step: a describe_table call on `table`. */
export const describeTableTurn = (table: string): ScriptedTurn => ({
  kind: 'tool',
  tools: [{ name: 'describe_table', input: { table } }],
});

/** The tool result the model was sent in `request` (the last message's first one). */
export function lastToolResult(request: RecordedRequest | undefined): {
  status?: string;
  json: Record<string, unknown>;
} {
  const messages = (request?.body.messages ?? []) as {
    content: { toolResult?: { status?: string; content: { json?: Record<string, unknown> }[] } }[];
  }[];
  const block = messages.at(-1)?.content.find((b) => b.toolResult)?.toolResult;
  return { status: block?.status, json: block?.content[0]?.json ?? {} };
}

/**
 * The agent against a real DynamoDB Local and the fake Bedrock Runtime through the real SDK and
 * the app's client factory; connections are edited through `connections:save` as in the app.
 * Bedrock credentials come from a profile in a temp shared-credentials file, so a test can
 * check that the secret never travels in a request.
 */
export async function agentHarness(endpoint: string) {
  const items = itemsHarness(endpoint, {
    ...agentHandlers,
    // athena:saveSettings: the scan limit the user sets in the SQL workbench holds the agent too.
    ...athenaHandlers,
    ...operationHandlers,
    ...resultSetHandlers,
    ...sqlAssistHandlers,
    ...schemaHandlers,
    ...connectionHandlers,
  });
  // The app's own clients: editing a connection mid-question must meet the real client cache.
  useAppClients(items);
  const dataDir = await mkdtemp(join(tmpdir(), 'dynotable-agent-'));
  (items.ctx as { dataDir: string }).dataDir = dataDir;
  await writeFile(
    join(dataDir, 'credentials'),
    `[bedrock-test]\naws_access_key_id = AKIABEDROCKTEST00001\naws_secret_access_key = ${BEDROCK_SECRET}\n`,
  );
  await writeFile(join(dataDir, 'config'), '[profile bedrock-test]\nregion = us-east-1\n');
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(dataDir, 'credentials');
  process.env.AWS_CONFIG_FILE = join(dataDir, 'config');
  const fake = await startFakeBedrock();
  const table = await createItemsTable(items.client, { sortKey: false, prefix: 'agent' });
  let counter = 0;

  async function configure(connectionId: string, overrides: Partial<AgentSettings> = {}): Promise<void> {
    const settings: AgentSettings = {
      ...defaultAgentSettings,
      modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      bedrockEndpoint: fake.endpoint,
      bedrockProfile: 'bedrock-test',
      allowedTables: [table],
      ...overrides,
    };
    const saved = await items.call('agent:saveSettings', { connectionId, settings });
    if (!saved.ok) throw new Error(saved.error.message);
  }

  /** Asks a question with a scripted model; `onApproval` answers approval cards like a user would. */
  async function ask(options: {
    question: string;
    script: ScriptedTurn[];
    connectionId?: string;
    conversationId?: string;
    onApproval?: (approvalId: string, event: AgentEvent & { kind: 'approval' }) => Promise<void> | void;
    onEvent?: (event: OperationEvent) => void;
  }) {
    fake.script = options.script;
    counter += 1;
    const requestId = `agent-req-${counter}-${Date.now()}`;
    const agentEvents: AgentEvent[] = [];
    const stop = items.ctx.events.subscribe((event) => {
      if (event.requestId !== requestId) return;
      options.onEvent?.(event);
      if (event.type !== 'agent') return;
      agentEvents.push(event.event);
      if (event.event.kind === 'approval' && options.onApproval)
        void options.onApproval(event.event.approval.id, event.event);
    });
    const finished = items.waitFor(requestId);
    const started = await items.call<{ conversationId: string }>('agent:ask', {
      connectionId: options.connectionId ?? 'local',
      requestId,
      question: options.question,
      conversationId: options.conversationId,
    });
    if (!started.ok) {
      stop();
      throw new Error(`${started.error.code}: ${started.error.message}`);
    }
    const { last, events } = await finished;
    stop();
    const text = agentEvents.flatMap((e) => (e.kind === 'text' ? [e.delta] : [])).join('');
    return { requestId, conversationId: started.value.conversationId, last, events, agentEvents, text };
  }

  async function put(item: Item, tableName = table): Promise<void> {
    await items.client.send(new PutItemCommand({ TableName: tableName, Item: toSdkItem(item) }));
  }

  /** The item stored under partition key `pk` right now (the agent's tables have no sort key). */
  async function get(pk: string, tableName = table): Promise<Item | undefined> {
    const stored = await items.client.send(
      new GetItemCommand({ TableName: tableName, Key: { pk: { S: pk } } }),
    );
    return stored.Item ? fromSdkItem(stored.Item) : undefined;
  }

  return {
    ...items,
    dataDir,
    fake,
    table,
    configure,
    ask,
    put,
    get,
    async closeAll() {
      await fake.close();
      // run_sql starts the SQL worker of this core; a worker left running would outlive the test.
      await items.ctx.services.close();
      await items.close();
    },
  };
}
