import type { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { tableExportInput, TableExportSummary, TransferFormat } from '../../../shared/ipc/transfer';
import type { CoreContext } from '../../core/context';
import { jobStore } from '../../jobs/job-store';
import { runningJobs } from '../../core/running-jobs';
import { initialCursors } from '../read/segmented-read';
import { tableSummary } from '../table-metadata';
import { runTableExport, segmentsFor } from './table-export-run';
import { newTableExportId, type TableExportCheckpoint, TableExportStore } from './table-export-store';

const store = (ctx: CoreContext): TableExportStore => new TableExportStore(jobStore(ctx));

const BUSY = 'That export is running now. Wait for it, or cancel it first.';

function start(ctx: CoreContext, requestId: string, checkpoint: TableExportCheckpoint): void {
  runningJobs(ctx).start({ kind: 'export', id: checkpoint.exportId, requestId, busy: BUSY }, async (run) =>
    runTableExport(await ctx.clients.dynamo(checkpoint.connectionId), store(ctx), checkpoint, run),
  );
}

/**
 * A new export's first checkpoint: the table described now (its size decides the segments, its
 * count the progress), the index checked to exist. Shared by the app and `dynotable export table`.
 */
export async function newTableExportCheckpoint(
  client: DynamoDBClient,
  input: { connectionId: string; table: string; index?: string | undefined; format: TransferFormat },
  path: string,
): Promise<TableExportCheckpoint> {
  const info = await tableSummary(client, input.table);
  const index = input.index === undefined ? undefined : info.indexes.find((i) => i.name === input.index);
  if (input.index !== undefined && !index) {
    const names = info.indexes.map((i) => i.name);
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${input.table} has no index named ${input.index}. ${names.length === 0 ? 'It has no indexes.' : `Its indexes: ${names.join(', ')}.`}`,
    );
  }
  const totalSegments = segmentsFor(info.sizeBytes);
  const now = new Date().toISOString();
  return {
    version: 1,
    exportId: newTableExportId(),
    connectionId: input.connectionId,
    table: input.table,
    ...(input.index === undefined ? {} : { index: input.index }),
    format: input.format,
    path,
    totalSegments,
    segments: initialCursors(totalSegments),
    spoolBytes: 0,
    items: 0,
    consumedCapacity: 0,
    sourceCount: index?.itemCount ?? info.itemCount,
    state: 'stopped',
    startedAt: now,
    savedAt: now,
  };
}

/** Starts a whole-table (or index) export to `path`, already checked by the caller. */
export async function startTableExport(
  ctx: CoreContext,
  input: z.output<typeof tableExportInput>,
  path: string,
): Promise<{ started: boolean; exportId: string }> {
  const checkpoint = await newTableExportCheckpoint(
    await ctx.clients.dynamo(input.connectionId),
    input,
    path,
  );
  await store(ctx).save(checkpoint);
  start(ctx, input.requestId, checkpoint);
  return { started: true, exportId: checkpoint.exportId };
}

/** Goes on with a stopped export, with the settings it started with. */
export async function resumeTableExport(
  ctx: CoreContext,
  requestId: string,
  exportId: string,
): Promise<{ started: boolean; exportId: string }> {
  runningJobs(ctx).assertIdle('export', exportId, BUSY);
  const checkpoint = await store(ctx).load(exportId);
  start(ctx, requestId, checkpoint);
  return { started: true, exportId };
}

export function listTableExports(
  ctx: CoreContext,
  connectionId: string,
  table: string,
): Promise<TableExportSummary[]> {
  return store(ctx).list(connectionId, table, (id) => runningJobs(ctx).isRunning('export', id));
}

export async function forgetTableExport(ctx: CoreContext, exportId: string): Promise<{ removed: boolean }> {
  runningJobs(ctx).assertIdle('export', exportId, BUSY);
  return { removed: await store(ctx).remove(exportId) };
}
