import type { Item } from '../../../shared/dynamo/attribute-value';
import { buildReadRequest } from '../../../shared/dynamo/read-request';
import { formatSeconds } from '../../../shared/dynamo/purge-estimate';
import type { BulkReport } from '../../../shared/ipc/items';
import type { Progress } from '../../../shared/ipc/operations';
import type { PurgeResult } from '../../../shared/ipc/table-admin';
import type { CoreContext } from '../../core/context';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { decodeCursor, type ReadCursor } from '../cursor';
import type { ItemTarget } from '../items/item-access';
import { runRead } from '../query/run-read';
import { readTargetOf } from '../table-metadata';
import { assertWritable } from '../writes/guards';
import { emptyReport, writeEach } from '../writes/write-each';
import { sleep } from '../../core/retry';
import { RateMeter } from '../../core/rate-meter';

/** Keys read per Scan call, deleted before the next call: memory stays bounded by this. */
const CHUNK = 1000;
/** A pass that deleted something is followed by another, until one finds nothing (writers race the purge). */
const MAX_PASSES = 3;
const PROGRESS_EVERY_MS = 250;
/** The rate is measured over the last few seconds, so a throttled stretch shows in it. */
const RATE_WINDOW_MS = 5_000;

/** A call, not a property read, so an earlier check does not narrow it (the SDK aborts it meanwhile). */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

export interface PurgeJob {
  connectionId: string;
  /** DynamoDB's approximate count when the purge started: the fraction and ETA are measured against it. */
  itemCount: number;
  maxPerSecond?: number;
}

/**
 * Deletes every item and keeps the table: keys are read through the one read loop (runRead,
 * with its backoff) a chunk at a time and deleted through the one bulk write path, under one
 * requestId. Resuming is starting again: deleted items are gone, so a new Scan finds only the rest.
 */
export async function purgeTable(
  ctx: CoreContext,
  t: ItemTarget,
  job: PurgeJob,
  run: OperationRun,
  /** Told the counts after each batch: the job store's record of the purge. */
  note?: (counts: { deleted: number; alreadyGone: number; failed: number }) => void,
): Promise<OperationOutcome<'tables:purge'>> {
  const report = emptyReport();
  const reads = { units: 0 };
  const rate = new RateMeter(RATE_WINDOW_MS, () => Date.now());
  const started = Date.now();
  let lastEmit = 0;
  let isEmpty = false;
  const progress = (): Progress => {
    const done = report.succeeded + report.conflicts + report.failed;
    const perSecond = rate.current(done) ?? done / Math.max(1, (Date.now() - started) / 1000);
    const left = Math.max(0, job.itemCount - done);
    const etaSeconds = perSecond > 0 && left > 0 ? Math.ceil(left / perSecond) : undefined;
    return {
      items: report.succeeded,
      pages: 0,
      consumedCapacity: reads.units,
      failed: report.failed,
      perSecond: Math.round(perSecond),
      ...(etaSeconds === undefined ? {} : { etaSeconds }),
      ...(job.itemCount > 0 ? { fraction: Math.min(isEmpty ? 1 : 0.99, done / job.itemCount) } : {}),
      message: purgeMessage(report, Math.round(perSecond), etaSeconds),
    };
  };
  const value = (): PurgeResult => ({
    table: t.info.name,
    deleted: report.succeeded,
    alreadyGone: report.conflicts,
    failed: report.failed,
    failures: report.failures.slice(0, 20),
    readUnits: reads.units,
    isEmpty,
  });
  const pace = paceTo(job.maxPerSecond, run.signal);
  try {
    for (let pass = 0; pass < MAX_PASSES && !run.signal.aborted; pass++) {
      const before = report.succeeded + report.conflicts + report.failed;
      await writeEach(t, chunksOf(ctx, t, job, run, reads), report, run, {
        action: { type: 'delete' },
        conditionOnSeen: false,
        record: (written) => t.record(written),
        afterBatch: async () => {
          const done = report.succeeded + report.conflicts + report.failed;
          rate.rate(done);
          note?.({ deleted: report.succeeded, alreadyGone: report.conflicts, failed: report.failed });
          if (Date.now() - lastEmit >= PROGRESS_EVERY_MS) {
            lastEmit = Date.now();
            run.emit({ type: 'progress', progress: progress() });
          }
          await pace(report.succeeded);
        },
      });
      if (report.succeeded + report.conflicts + report.failed === before && !isAborted(run.signal)) {
        isEmpty = report.failed === 0;
        break;
      }
    }
  } catch (error) {
    // A cancel mid-batch still reports what was deleted.
    if (run.signal.aborted) return { progress: progress(), value: value() };
    throw error;
  }
  return { progress: progress(), value: value() };
}

/**
 * One Scan call at a time through runRead, into a result set of its own that no write is applied
 * to (it has no read scope), emptied into memory and dropped before its keys are deleted. The
 * connection is read again before each chunk: made read-only meanwhile, the purge stops there.
 */
async function* chunksOf(
  ctx: CoreContext,
  t: ItemTarget,
  job: PurgeJob,
  run: OperationRun,
  reads: { units: number },
): AsyncGenerator<Item[]> {
  const { partitionKey, sortKey } = t.info.keys;
  const request = buildReadRequest(readTargetOf(t.info), {
    mode: 'scan',
    projection: [[partitionKey.name], ...(sortKey ? [[sortKey.name]] : [])],
  });
  const quiet: OperationRun = { signal: run.signal, emit: () => undefined };
  let cursor: ReadCursor | undefined;
  while (!run.signal.aborted) {
    const resultSetId = await ctx.resultSets.create({
      connectionId: job.connectionId,
      table: t.info.name,
      keyAttributes: [partitionKey.name, ...(sortKey ? [sortKey.name] : [])],
    });
    let keys: Item[];
    let next: string | undefined;
    try {
      const read = await runRead(
        t.client,
        ctx.resultSets,
        {
          request,
          resultSetId,
          pageSize: CHUNK,
          maxItems: CHUNK,
          untilMatches: false,
          maxPages: 1,
          cursor,
          itemCount: 0,
        },
        quiet,
      );
      reads.units += read.progress.consumedCapacity;
      next = read.cursor;
      keys = (await ctx.resultSets.window(resultSetId, 0, CHUNK)).rows;
    } finally {
      await ctx.resultSets.drop(resultSetId);
    }
    if (keys.length > 0) {
      assertWritable(await ctx.connections.get(job.connectionId));
      yield keys;
    }
    if (next === undefined || isAborted(run.signal)) return;
    cursor = decodeCursor(next, { table: t.info.name });
  }
}

function purgeMessage(report: BulkReport, perSecond: number, etaSeconds: number | undefined): string {
  const parts = [`${report.succeeded.toLocaleString('en-US')} deleted`];
  if (report.conflicts > 0) parts.push(`${report.conflicts.toLocaleString('en-US')} already gone`);
  parts.push(
    `${report.failed.toLocaleString('en-US')} failed`,
    `${perSecond.toLocaleString('en-US')} items/s`,
  );
  if (etaSeconds !== undefined) parts.push(`about ${formatSeconds(etaSeconds)} left`);
  return parts.join(', ');
}

/** Waits as long as the deletes are ahead of maxPerSecond since the purge started. */
function paceTo(maxPerSecond: number | undefined, signal: AbortSignal): (done: number) => Promise<void> {
  const started = Date.now();
  return async (done) => {
    if (!maxPerSecond) return;
    const due = started + (done / maxPerSecond) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait, signal);
  };
}
