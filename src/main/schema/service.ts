import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import type { SchemaReport, SchemaScanSummary } from '../../shared/ipc/schema';
import type { CoreContext } from '../core/context';
import { toAppError } from '../core/to-app-error';
import { assertNotRunning, withCursor } from '../migration/service';
import { newMigrationId } from '../migration/store';
import { analyzeSchema, reportOfSchemaCheckpoint, type SchemaCheckpoint } from './analyze';
import { noticed } from './schema-store';
import type { OperationOutcome } from '../core/operations';
import { runningJobs } from '../core/running-jobs';
import { schemaStore } from './schema-store';
import { stopSchemaWarmUp } from './warm-up';

const BUSY = 'That scan is still running.';

export async function startSchemaAnalysis(
  input: ChannelInput<'schema:analyze'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'schema:analyze'>> {
  assertNotRunning(ctx, input.requestId);
  stopSchemaWarmUp(ctx);
  const store = schemaStore(ctx);
  const client = await ctx.clients.dynamo(input.connectionId);
  let resume: SchemaCheckpoint | undefined;
  let previous: SchemaScanSummary | undefined;
  if (input.resumeScanId) {
    runningJobs(ctx).assertIdle('schema', input.resumeScanId, BUSY);
    previous = await store.summary(input.resumeScanId);
    if (
      previous.connectionId !== input.connectionId ||
      previous.table !== input.table ||
      previous.index !== input.index
    )
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `Scan ${input.resumeScanId} read another table or index.`,
      );
    if (previous.state === 'done')
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'That scan finished; start a new one to read the table again.',
      );
    resume = await noticed(store, previous, store.checkpoint(input.resumeScanId)).catch((error: unknown) => {
      if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
      throw error;
    });
  }
  const scanId = input.resumeScanId ?? newMigrationId('schema');
  const mode = resume?.mode ?? input.mode;
  const summary: SchemaScanSummary = {
    scanId,
    connectionId: input.connectionId,
    table: input.table,
    ...(input.index ? { index: input.index } : {}),
    mode,
    state: 'running',
    requestId: input.requestId,
    startedAt: previous?.startedAt ?? new Date().toISOString(),
    itemsScanned: resume ? (previous?.itemsScanned ?? 0) : 0,
  };
  await store.save(scanId, 'summary', summary);
  const job = { kind: 'schema', id: scanId, requestId: input.requestId, busy: BUSY } as const;
  runningJobs(ctx).start(job, async ({ signal, emit }): Promise<OperationOutcome<'schema:analyze'>> => {
    const patch = (next: Partial<SchemaScanSummary>) =>
      store.save(scanId, 'summary', Object.assign(summary, next));
    try {
      const result = await analyzeSchema({
        client,
        table: input.table,
        index: input.index,
        mode,
        scanId,
        signal,
        sampleSize: input.sampleSize,
        segments: input.segments,
        limit: input.limit,
        entities: input.typeAttribute ? { kind: 'attribute', name: input.typeAttribute } : { kind: 'keys' },
        resume,
        onProgress: (progress) => {
          summary.itemsScanned = progress.items;
          emit({ type: 'progress', progress });
        },
        // A sample is a few requests: nothing to resume, so nothing to save on the way.
        onCheckpoint: mode === 'full' ? (c) => store.save(scanId, 'checkpoint', c) : undefined,
      });
      await store.save(scanId, 'report', result.report);
      await store.drop(scanId, 'checkpoint');
      await patch({ state: 'done', itemsScanned: result.report.itemsScanned });
      return {
        progress: {
          items: result.report.itemsScanned,
          pages: result.report.draw.pages,
          consumedCapacity: result.report.draw.consumedReadCapacity,
        },
        value: { scanId },
      };
    } catch (error) {
      const app = toAppError(error);
      await patch(signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: app.message }).catch(
        () => undefined,
      );
      throw withCursor(error, scanId);
    }
  });
  return { scanId };
}

/**
 * The newest finished read of a table (not of an index) that the Schema view saved for this
 * connection, if any: what Ask grounds the model in before it samples anything itself.
 */
export async function latestSchemaReport(
  ctx: CoreContext,
  connectionId: string,
  table: string,
): Promise<SchemaReport | undefined> {
  const store = schemaStore(ctx);
  const scans = await store.list({ connectionId, table });
  const done = scans.find(
    (s) =>
      s.connectionId === connectionId && s.table === table && s.index === undefined && s.state === 'done',
  );
  // Ask goes on without it; the Schema view's list then says why the read failed.
  return done ? noticed(store, done, store.report(done.scanId)).catch(() => undefined) : undefined;
}

export async function loadSchemaReport(scanId: string, ctx: CoreContext): Promise<SchemaReport> {
  const store = schemaStore(ctx);
  const summary = await store.summary(scanId);
  if (summary.state === 'done') return noticed(store, summary, store.report(scanId));
  const checkpoint = await noticed(store, summary, store.checkpoint(scanId)).catch((error: unknown) => {
    if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
    throw error;
  });
  if (!checkpoint)
    throw new AppFailure(
      ErrorCodes.notFound,
      'This read has no results yet; wait for its first checkpoint (a few seconds).',
    );
  return reportOfSchemaCheckpoint(checkpoint, new Date().toISOString());
}

export async function listSchemaScans(
  input: ChannelInput<'schema:scans'>,
  ctx: CoreContext,
): Promise<SchemaScanSummary[]> {
  const all = await schemaStore(ctx).list(input);
  return all
    .filter(
      (s) => s.connectionId === input.connectionId && s.table === input.table && s.index === input.index,
    )
    .map((s) =>
      s.state === 'running' && !runningJobs(ctx).isRunning('schema', s.scanId)
        ? {
            ...s,
            state: 'failed' as const,
            error: 'Interrupted: DynoTable closed during the scan. Resume it.',
          }
        : s,
    );
}
