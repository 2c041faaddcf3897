import { withDeadline } from '../../dynamo/deadline';
import { describeTable, listTables } from '../../dynamo/tables';
import type { HandlerTable } from '../dispatcher';

type TableChannel = 'tables:list' | 'tables:describe';

/** Listing describes every table (a few calls each), so it gets more time than one description. */
const LIST_DEADLINE_MS = 120_000;
const DESCRIBE_DEADLINE_MS = 30_000;

export const tableHandlers: Pick<HandlerTable, TableChannel> = {
  'tables:list': async ({ connectionId }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    return withDeadline(LIST_DEADLINE_MS, 'listing tables', (signal) => listTables(client, signal));
  },
  'tables:describe': async ({ connectionId, table }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    return withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      describeTable(client, table, signal),
    );
  },
};
