import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import type { DateSetting, MigrationReport, ScanSummary } from '../../shared/ipc/migration';
import type { CoreContext, ServiceSlot } from '../core/context';
import { recordingSetAside } from '../core/data-files';
import { toAppError } from '../core/to-app-error';
import { exportReport } from './export';
import { mergeExpectations } from './expectations';
import { MigrationStore, newMigrationId } from './store';
import { jobStore } from '../jobs/job-store';
import {
  type DynamooseFile,
  type MigrationScanCheckpoint,
  reportOfCheckpoint,
  runMigrationScan,
} from './scan-migration';
import { withExpectations } from './verdict';
import type { OperationOutcome } from '../core/operations';
import { runningJobs } from '../core/running-jobs';

const BUSY = 'That scan is still running.';

/** The migration pre-flight's scans, plans and acknowledgements on disk. */
const migrationSlot: ServiceSlot<MigrationStore> = {
  name: 'migration',
  create: (ctx) => new MigrationStore(ctx.dataDir, jobStore(ctx)),
  isUsableWhenClosed: true,
};

/** The core's migration store (ctx.services owns it). */
export function migrationStore(ctx: CoreContext): MigrationStore {
  return ctx.services.get(migrationSlot);
}

/** Keeps the error's code (the AWS name) and adds the id to resume from as the event's cursor. */
export function withCursor(error: unknown, cursor: string): AppFailure {
  const app = toAppError(error);
  return new AppFailure(app.code, app.message, app.retryable, { ...app.details, cursor });
}

/** Checked before any state is written, so a refused start leaves nothing half-made behind. */
export function assertNotRunning(ctx: CoreContext, requestId: string): void {
  if (ctx.operations.isRunning(requestId)) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `Request ${requestId} is already running; use a new request id.`,
    );
  }
}

export async function startMigrationScan(
  input: ChannelInput<'migration:scan'>,
  ctx: CoreContext,
  /** A dynamoose schema file given with the start (the CLI's --dynamoose-model) instead of the table's stored one. */
  given: { dynamoose?: DynamooseFile } = {},
): Promise<ChannelOutput<'migration:scan'>> {
  assertNotRunning(ctx, input.requestId);
  const store = migrationStore(ctx);
  const client = await ctx.clients.dynamo(input.connectionId);
  let resume: MigrationScanCheckpoint | undefined;
  let previous: ScanSummary | undefined;
  if (input.resumeScanId) {
    runningJobs(ctx).assertIdle('preflight', input.resumeScanId, BUSY);
    previous = await store.loadSummary(input.resumeScanId);
    if (previous.connectionId !== input.connectionId || previous.table !== input.table) {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `Scan ${input.resumeScanId} was of ${previous.table} on another connection.`,
      );
    }
    if (previous.state === 'done')
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'That scan finished; start a new scan to read the table again.',
      );
    // Stopped before its first checkpoint (cancelled as it started, or DescribeTable refused):
    // nothing it read was kept, so it resumes from the start.
    resume = await noticed(
      store,
      previous,
      store.loadCheckpoint(input.resumeScanId).catch((error: unknown) => {
        if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
        throw error;
      }),
    );
  }
  // The counts so far belong to the checkpoint; a scan resumed from the start begins at zero.
  const carried = resume ? previous : undefined;
  const scanId = input.resumeScanId ?? newMigrationId('scan');
  const summary: ScanSummary = {
    scanId,
    connectionId: input.connectionId,
    table: input.table,
    state: 'running',
    requestId: input.requestId,
    startedAt: previous?.startedAt ?? new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    segments: resume?.totalSegments ?? input.segments ?? 4,
    itemsScanned: carried?.itemsScanned ?? 0,
    tableItemCount: carried?.tableItemCount ?? 0,
    consumedReadCapacity: carried?.consumedReadCapacity ?? 0,
  };
  // The table's dynamoose schema file, if one is given, is checked in the same walk; a resumed
  // scan keeps what its checkpoint holds, so its report is the one the first run would make.
  const stored =
    resume || given.dynamoose ? undefined : await store.dynamoose.get(input.connectionId, input.table);
  const dynamoose = resume
    ? undefined
    : (given.dynamoose ?? (stored ? { file: stored.fileName, models: stored.review.models } : undefined));
  await store.saveSummary(summary);
  const job = { kind: 'preflight', id: scanId, requestId: input.requestId, busy: BUSY } as const;
  runningJobs(ctx).start(job, async ({ signal, emit }): Promise<OperationOutcome<'migration:scan'>> => {
    const save = (patch: Partial<ScanSummary>) =>
      store.saveSummary(Object.assign(summary, patch, { updatedAt: new Date().toISOString() }));
    try {
      const result = await runMigrationScan({
        client,
        table: input.table,
        scanId,
        signal,
        segments: input.segments,
        limit: input.limit,
        resume,
        ...(dynamoose ? { dynamoose } : {}),
        onProgress: (progress) => {
          summary.itemsScanned = progress.items;
          summary.consumedReadCapacity = progress.consumedCapacity;
          emit({ type: 'progress', progress });
        },
        onCheckpoint: async (c) => {
          await store.saveCheckpoint(c);
          await save({ tableItemCount: c.info.itemCount });
        },
      });
      await store.saveReport(result.report);
      await store.dropCheckpoint(scanId);
      const { verdict } = await acknowledged(store, result.report, input.connectionId);
      await save({
        state: 'done',
        itemsScanned: result.report.itemsScanned,
        tableItemCount: result.report.tableItemCount,
        consumedReadCapacity: result.report.consumedReadCapacity,
        needsFix: verdict.needsFix,
        verdictLine: verdict.line,
      });
      const last = {
        items: result.report.itemsScanned,
        pages: result.checkpoint.pages,
        consumedCapacity: result.report.consumedReadCapacity,
      };
      return {
        progress: last,
        value: { scanId, needsFix: verdict.needsFix, verdictLine: verdict.line },
      };
    } catch (error) {
      const app = toAppError(error);
      await save(signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: app.message }).catch(
        () => undefined,
      );
      throw withCursor(error, scanId);
    }
  });
  return { scanId };
}

export async function listMigrationScans(
  input: ChannelInput<'migration:scans'>,
  ctx: CoreContext,
): Promise<ScanSummary[]> {
  const list = await migrationStore(ctx).listSummaries({
    connectionId: input.connectionId,
    table: input.table,
  });
  return list.map((s) =>
    // A summary still "running" that no job here runs was cut off when DynoTable closed.
    s.state === 'running' && !runningJobs(ctx).isRunning('preflight', s.scanId)
      ? { ...s, state: 'failed', error: 'Interrupted: DynoTable closed during the scan. Resume it.' }
      : s,
  );
}

/**
 * The report's verdict with the table's acknowledgements and model file as they are now: the
 * findings stay as scanned, and an acknowledgement made (or a model given) after the scan counts
 * without scanning again.
 */
async function acknowledged(
  store: MigrationStore,
  report: MigrationReport,
  connectionId: string,
): Promise<MigrationReport> {
  const [{ acknowledgements }, model] = await Promise.all([
    store.acknowledgements.list(connectionId, report.table),
    store.models.get(connectionId, report.table),
  ]);
  // Merged as scan-migration merges --model under --expectations: an acknowledgement wins.
  return withExpectations(report, mergeExpectations<DateSetting>(model?.dateStorage ?? [], acknowledgements));
}

export async function loadMigrationReport(scanId: string, ctx: CoreContext): Promise<MigrationReport> {
  const store = migrationStore(ctx);
  const summary = await store.loadSummary(scanId);
  const report = await noticed(store, summary, loadRawReport(store, summary));
  return acknowledged(store, report, summary.connectionId);
}

/**
 * A scan whose report or checkpoint was set aside as unreadable is failed from then on, with the
 * sentence as its error: the file is gone from its place, and the scan list is where users look.
 */
function noticed<T>(store: MigrationStore, summary: ScanSummary, work: Promise<T>): Promise<T> {
  return recordingSetAside(work, ({ message }) =>
    store.saveSummary({ ...summary, state: 'failed', error: message, updatedAt: new Date().toISOString() }),
  );
}

async function loadRawReport(store: MigrationStore, summary: ScanSummary): Promise<MigrationReport> {
  const { scanId } = summary;
  if (summary.state === 'done') return store.loadReport(scanId);
  // Cancelled, failed or still running: the report so far, from the last checkpoint.
  const checkpoint = await store.loadCheckpoint(scanId).catch((error: unknown) => {
    if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
    throw error;
  });
  if (!checkpoint)
    throw new AppFailure(
      ErrorCodes.notFound,
      'This scan has no results yet; wait for its first checkpoint (a few seconds).',
    );
  return reportOfCheckpoint(checkpoint, summary.updatedAt);
}

export async function exportMigrationReport(
  input: ChannelInput<'migration:export'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:export'>> {
  return exportReport(await loadMigrationReport(input.scanId, ctx), input.format);
}

export function listAcknowledgements(
  input: ChannelInput<'migration:acknowledgements'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:acknowledgements'>> {
  return migrationStore(ctx).acknowledgements.list(input.connectionId, input.table);
}

/**
 * The scan list shows each finished scan's verdict line: say it again with the acknowledgements
 * as they are now, so the list and the open report never disagree.
 */
export async function restateVerdicts(
  store: MigrationStore,
  connectionId: string,
  table: string,
): Promise<void> {
  const scans = await store.listSummaries({ connectionId, table });
  for (const summary of scans) {
    if (summary.state !== 'done') continue;
    const report = await noticed(store, summary, store.loadReport(summary.scanId)).catch(() => undefined);
    if (!report) continue;
    const { verdict } = await acknowledged(store, report, connectionId);
    await store.saveSummary({ ...summary, needsFix: verdict.needsFix, verdictLine: verdict.line });
  }
}

export async function acknowledgeSetting(
  input: ChannelInput<'migration:acknowledge'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:acknowledge'>> {
  // The connection must exist: an acknowledgement filed under a mistyped id would never count.
  await ctx.connections.get(input.connectionId);
  const store = migrationStore(ctx);
  const list = await store.acknowledgements.acknowledge(input.connectionId, input.table, input);
  await restateVerdicts(store, input.connectionId, input.table);
  return list;
}

export async function withdrawAcknowledgement(
  input: ChannelInput<'migration:withdrawAcknowledgement'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:withdrawAcknowledgement'>> {
  const store = migrationStore(ctx);
  const list = await store.acknowledgements.withdraw(input.connectionId, input.table, input.path);
  await restateVerdicts(store, input.connectionId, input.table);
  return list;
}
