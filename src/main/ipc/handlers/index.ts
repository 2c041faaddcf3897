import type { HandlerTable } from '../dispatcher';
import { agentHandlers } from './agent';
import { appHandlers } from './app';
import { athenaHandlers } from './athena';
import { connectionHandlers } from './connections';
import { copyHandlers } from './copy';
import { exportHandlers } from './exports';
import { bulkHandlers } from './bulk';
import { itemHandlers } from './items';
import { journalHandlers } from './journal';
import { mcpHandlers } from './mcp';
import { workspaceHandlers } from './workspace';
import { queryHandlers } from './query';
import { migrationHandlers } from './migration';
import { operationHandlers } from './operations';
import { playgroundHandlers } from './playground';
import { resultSetHandlers } from './resultsets';
import { schemaHandlers } from './schema';
import { healthHandlers } from './health';
import { sqlHandlers } from './sql';
import { sqlAssistHandlers } from './sql-assist';
import { streamHandlers } from './streams';
import { tableHandlers } from './tables';
import { transferHandlers } from './transfer';
import { jobHandlers } from './jobs';

/** Every channel of the contract, split by domain; the type makes a missing channel a compile error. */
export const handlers: HandlerTable = {
  ...appHandlers,
  ...connectionHandlers,
  ...playgroundHandlers,
  ...tableHandlers,
  ...streamHandlers,
  ...operationHandlers,
  ...resultSetHandlers,
  ...itemHandlers,
  ...queryHandlers,
  ...bulkHandlers,
  ...journalHandlers,
  ...workspaceHandlers,
  ...transferHandlers,
  ...jobHandlers,
  ...copyHandlers,
  ...exportHandlers,
  ...agentHandlers,
  ...mcpHandlers,
  ...migrationHandlers,
  ...schemaHandlers,
  ...healthHandlers,
  ...sqlHandlers,
  ...sqlAssistHandlers,
  ...athenaHandlers,
};
