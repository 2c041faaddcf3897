import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { agentChannels } from './agent';
import { mcpChannels } from './mcp';
import { athenaChannels } from './athena';
import { deleteItemInput, itemChannels, keptForUndoShape } from './items';
import { journalChannels } from './journal';
import { workspaceChannels } from './workspace';
import { collectionHeaderSchema, queryChannels } from './query';
import { transferChannels } from './transfer';
import { jobChannels } from './jobs';
import { copyChannels } from './copy';
import { exportChannels } from './exports';
import {
  connectionSchema,
  mfaCodeInput,
  profileSummarySchema,
  saveConnectionInput,
  testConnectionOutput,
} from './connection';
import { requestIdSchema } from './operations';
import { migrationChannels } from './migration';
import { schemaChannels } from './schema';
import { healthChannels } from './health';
import { sqlChannels, sqlResultSummarySchema } from './sql';
import { sqlAssistChannels } from './sql-assist';
import { tableAdminChannels } from './table-admin';
import { streamChannels } from './streams';
import { tableRegionChannels } from './table-regions';
import { tableRefInput, tableSummarySchema } from './tables';
import { windowAnswerShape, windowRangeShape } from './window';

/**
 * The one contract between renderer and main. Channel names are `domain:verb`; inputs and
 * outputs are declared once here and every type is inferred from these schemas. Electron IPC,
 * the preload, browser mode's HTTP routes and docs/API.md are all derived from this object.
 */
const none = z.object({}).strict();
const connectionRef = z.object({ connectionId: z.string() });

export const playgroundStatusSchema = z.object({
  state: z.enum(['stopped', 'starting', 'running', 'unavailable', 'failed']),
  endpoint: z.string().optional(),
  /** Why the playground cannot run, and how to fix it. */
  message: z.string().optional(),
  seeded: z.boolean().optional(),
});

export const contract = {
  'app:info': {
    input: none,
    output: z.object({
      version: z.string(),
      mode: z.enum(['desktop', 'browser']),
      platform: z.string(),
      encryptionAvailable: z.boolean(),
    }),
  },
  'app:openExternal': {
    input: z.object({ url: z.string().max(2048) }),
    output: z.object({ opened: z.boolean() }),
  },

  'connections:list': { input: none, output: z.array(connectionSchema) },
  'connections:save': { input: saveConnectionInput, output: connectionSchema },
  'connections:delete': { input: connectionRef, output: z.object({ deleted: z.boolean() }) },
  'connections:test': { input: connectionRef, output: testConnectionOutput },
  'connections:profiles': { input: none, output: z.array(profileSummarySchema) },
  'connections:signIn': {
    input: connectionRef.extend({ requestId: requestIdSchema }),
    output: z.object({ started: z.boolean() }),
    /** When the new SSO session ends. */
    done: z.object({ expiresAt: z.string() }),
  },
  'connections:mfaCode': { input: mfaCodeInput, output: z.object({ received: z.boolean() }) },

  'playground:status': { input: none, output: playgroundStatusSchema },
  'playground:start': { input: none, output: playgroundStatusSchema },

  'tables:list': { input: connectionRef, output: z.array(tableSummarySchema) },
  'tables:describe': {
    input: tableRefInput,
    output: z.object({ summary: tableSummarySchema, raw: z.record(z.string(), z.unknown()) }),
  },
  ...tableAdminChannels,
  ...streamChannels,
  ...tableRegionChannels,

  'ops:cancel': {
    input: z.object({ requestId: requestIdSchema }),
    output: z.object({ cancelled: z.boolean() }),
  },

  'resultsets:window': {
    input: z.object({
      resultSetId: z.string(),
      ...windowRangeShape,
      /** Read in the order of a view made by resultsets:view (sorted/filtered). */
      viewId: z.string().optional(),
      /** In a collection view: offsets count items as if every collection were expanded, no headers. */
      itemsOnly: z.boolean().optional(),
    }),
    output: z.object({
      ...windowAnswerShape,
      rows: z.array(itemSchema),
      /** In a collection view: the collection headers among this window's positions. */
      headers: z.array(collectionHeaderSchema).optional(),
      /** In a collection view: each row's item position, which collapsing does not change. */
      positions: z.array(z.number().int()).optional(),
      /** Rows the user's own writes changed or created since the read, by their place in `rows`. */
      marks: z.array(z.object({ at: z.number().int(), mark: z.enum(['changed', 'new']) })).optional(),
    }),
  },
  'resultsets:drop': {
    input: z.object({ resultSetId: z.string() }),
    output: z.object({ dropped: z.boolean() }),
  },

  'items:get': {
    input: tableRefInput.extend({ key: itemSchema, consistent: z.boolean().optional() }),
    output: z.object({ item: itemSchema.nullable() }),
  },
  'items:create': {
    input: tableRefInput.extend({ item: itemSchema }),
    output: z.object({ item: itemSchema, ...keptForUndoShape }),
  },
  'items:delete': {
    input: deleteItemInput,
    output: z.object({ deleted: z.boolean(), ...keptForUndoShape }),
  },
  ...itemChannels,
  ...journalChannels,
  ...workspaceChannels,
  ...queryChannels,
  ...transferChannels,
  ...jobChannels,
  ...copyChannels,
  ...exportChannels,

  ...agentChannels,
  ...mcpChannels,

  ...migrationChannels,
  ...schemaChannels,
  ...healthChannels,

  ...sqlChannels,
  ...sqlAssistChannels,
  ...athenaChannels,
  // Ends like a SQL run; paired here because sql.ts imports athena.ts.
  'athena:run': { ...athenaChannels['athena:run'], done: sqlResultSummarySchema },
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<Contract[C]['output']>;

export const channels = Object.keys(contract) as Channel[];

/**
 * The channels that start long work under a requestId: each declares `done`, the schema of the
 * value its `done` event carries (z.undefined() when it carries none).
 */
export type OperationChannel = {
  [C in Channel]: Contract[C] extends { done: z.ZodType } ? C : never;
}[Channel];
export type OperationDone<C extends OperationChannel> = Contract[C] extends {
  done: infer D extends z.ZodType;
}
  ? z.output<D>
  : never;

export const operationChannels = channels.filter((c): c is OperationChannel => 'done' in contract[c]);

/** The schema of an operation channel's `done` value. */
export function doneSchemaOf<C extends OperationChannel>(channel: C): z.ZodType<OperationDone<C>> {
  return (contract[channel] as unknown as { done: z.ZodType<OperationDone<C>> }).done;
}

export function isChannel(name: string): name is Channel {
  return Object.prototype.hasOwnProperty.call(contract, name);
}

/** The one Electron channel for main→renderer operation events. */
export const EVENTS_CHANNEL = 'ops:event';
