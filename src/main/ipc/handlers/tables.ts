import { withDeadline } from '../../dynamo/deadline';
import { checkDefinition, createTable } from '../../dynamo/table-admin/create-table';
import { checkDelete, checkTypedName, deleteTable } from '../../dynamo/table-admin/delete-table';
import { purgeTable } from '../../dynamo/table-admin/purge-table';
import { forgetEmptiedPurges, startPurgeJob, stoppedRecord } from '../../jobs/work-records';
import { resolveTarget } from '../../dynamo/items/item-access';
import { estimatePurge } from '../../../shared/dynamo/purge-estimate';
import { listTags } from '../../dynamo/table-admin/tags';
import { checkChange, updateTable } from '../../dynamo/table-admin/update-table';
import { listTables } from '../../dynamo/tables';
import { listAcrossRegions } from '../../dynamo/tables-regions';
import { DYNAMODB_REGIONS, isSingleRegion } from '../../../shared/dynamo/regions';
import { forgetTable, tableDetails } from '../../dynamo/table-metadata';
import { assertWritable } from '../../dynamo/writes/guards';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { announceTableChange } from '../../sql/service-registry';
import type { HandlerTable } from '../dispatcher';
import type { OperationOutcome } from '../../core/operations';

type TableChannel =
  | 'tables:list'
  | 'tables:listRegions'
  | 'tables:describe'
  | 'tables:create'
  | 'tables:update'
  | 'tables:delete'
  | 'tables:tags'
  | 'tables:purgePreview'
  | 'tables:purge';

/** Listing describes every table (a few calls each), so it gets more time than one description. */
const LIST_DEADLINE_MS = 120_000;
const DESCRIBE_DEADLINE_MS = 30_000;

export const tableHandlers: Pick<HandlerTable, TableChannel> = {
  'tables:list': async ({ connectionId }, ctx) => {
    // A connection is opening: its tables are about to be opened. The result-set worker starts
    // now, beside the listing, so a table's first open does not wait for it (docs/PERFORMANCE.md).
    ctx.resultSets.warm();
    const client = await ctx.clients.dynamo(connectionId);
    return withDeadline(LIST_DEADLINE_MS, 'listing tables', (signal) => listTables(client, signal));
  },
  'tables:listRegions': async ({ connectionId, requestId, regions }, ctx) => {
    ctx.resultSets.warm();
    const connection = await ctx.connections.get(connectionId);
    const chosen = isSingleRegion(connection)
      ? [connection.region]
      : [...new Set(regions ?? DYNAMODB_REGIONS)];
    ctx.operations.start(requestId, (run) =>
      listAcrossRegions((region) => ctx.clients.dynamoIn(connectionId, region), chosen, run),
    );
    return { started: true, regions: chosen };
  },
  'tables:describe': async ({ connectionId, table }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    return withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
  },
  'tables:tags': async ({ connectionId, table }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    return withDeadline(DESCRIBE_DEADLINE_MS, `reading the tags of ${table}`, async (signal) => {
      const { summary } = await tableDetails(client, table, signal);
      if (!summary.arn) throw new AppFailure(ErrorCodes.notFound, `DynamoDB reported no ARN for ${table}.`);
      return listTags(client, summary.arn, signal);
    });
  },
  // Read-only is refused here, before the form's request is even checked; the SDK guard on the
  // connection's client would refuse CreateTable/UpdateTable as well.
  'tables:create': async ({ connectionId, requestId, definition }, ctx) => {
    assertWritable(await ctx.connections.get(connectionId));
    checkDefinition(definition);
    const client = await ctx.clients.dynamo(connectionId);
    ctx.operations.start(requestId, async (run): Promise<OperationOutcome<'tables:create'>> => {
      try {
        return {
          progress: { items: 0, pages: 0, consumedCapacity: 0 },
          value: await createTable(client, definition, run),
        };
      } finally {
        await announceTableChange(ctx, connectionId, definition.name);
      }
    });
    return { started: true };
  },
  'tables:update': async ({ connectionId, table, requestId, change }, ctx) => {
    assertWritable(await ctx.connections.get(connectionId));
    const client = await ctx.clients.dynamo(connectionId);
    const { summary } = await withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
    checkChange(change, summary);
    ctx.operations.start(requestId, async (run): Promise<OperationOutcome<'tables:update'>> => ({
      progress: { items: 0, pages: 0, consumedCapacity: 0 },
      value: await updateTable(client, summary, change, run),
    }));
    return { started: true };
  },
  'tables:delete': async ({ connectionId, table, requestId, confirmTable, confirmProduction }, ctx) => {
    const connection = await ctx.connections.get(connectionId);
    assertWritable(connection);
    const client = await ctx.clients.dynamo(connectionId);
    const { summary } = await withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
    checkDelete(connection, summary, confirmTable, confirmProduction);
    ctx.operations.start(requestId, async (run): Promise<OperationOutcome<'tables:delete'>> => {
      try {
        return {
          progress: { items: 0, pages: 0, consumedCapacity: 0 },
          value: await deleteTable(client, table, run),
        };
      } finally {
        await announceTableChange(ctx, connectionId, table);
      }
    });
    return { started: true };
  },
  'tables:purgePreview': async ({ connectionId, table }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    const { summary } = await withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
    return estimatePurge(summary);
  },
  'tables:purge': async (
    { connectionId, table, requestId, confirmTable, confirmProduction, maxPerSecond, resumeJobId },
    ctx,
  ) => {
    const connection = await ctx.connections.get(connectionId);
    assertWritable(connection);
    const client = await ctx.clients.dynamo(connectionId);
    const { summary } = await withDeadline(DESCRIBE_DEADLINE_MS, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
    checkTypedName(connection, summary.name, confirmTable, confirmProduction, {
      typed: `deleting every item in it (the table stays)`,
      second: `every item of ${summary.name} should be deleted`,
    });
    // The keys resolveTarget takes are the ones just described (tableDetails asks DynamoDB now):
    // a purge must not trust keys cached before a re-create.
    const target = await resolveTarget(ctx, connectionId, table, 'purge');
    // The purge keeps a record in the job store: after a stop or a crash, Resume goes on under
    // it (purging what is left, with the same confirmations), its counts going on from there.
    const where = { connectionId, table: summary.name };
    const from =
      resumeJobId === undefined
        ? { ...where, deleted: 0, alreadyGone: 0, failed: 0 }
        : await stoppedRecord(ctx, 'purge', resumeJobId, where);
    startPurgeJob(ctx, requestId, from, async (run, note) => {
      try {
        const job = { connectionId, itemCount: summary.itemCount, maxPerSecond };
        const outcome = await purgeTable(ctx, target, job, run, (now) =>
          note({
            deleted: from.deleted + now.deleted,
            alreadyGone: from.alreadyGone + now.alreadyGone,
            failed: from.failed + now.failed,
          }),
        );
        if (!outcome.value?.isEmpty) return outcome;
        const setAside = await forgetEmptiedPurges(ctx, connectionId, summary.name);
        return setAside.length === 0 ? outcome : { ...outcome, value: { ...outcome.value, setAside } };
      } finally {
        forgetTable(client, table);
      }
    });
    return { started: true };
  },
};
