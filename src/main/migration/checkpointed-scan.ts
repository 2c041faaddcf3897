import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadLimit } from '../../shared/ipc/migration';
import type { Progress } from '../../shared/ipc/operations';
import {
  type PageItems,
  type ScanPage,
  segmentedScan,
  type SegmentedScanOptions,
} from '../dynamo/read/segmented-read';

/** What a user (or the CLI) chooses about a long, resumable, paced scan: the pre-flight's and the Schema view's. */
export interface ScanRunOptions<C> {
  client: DynamoDBClient;
  table: string;
  scanId: string;
  signal: AbortSignal;
  /** Parallel Scan segments (default 4). */
  segments?: number;
  limit?: ReadLimit;
  onProgress?(progress: Progress): void;
  /** Persist this to resume later; called every checkpointEveryMs and when the scan stops early. */
  onCheckpoint?(checkpoint: C): Promise<void> | void;
  checkpointEveryMs?: number;
  progressEveryMs?: number;
  /** Items per Scan request; default: the read limit's page size, else DynamoDB's 1 MB pages. */
  pageSize?: number;
}

/** The counters every scan checkpoint carries. */
export interface ScanCounters {
  pages: number;
  consumed: number;
  scanned?: number;
  throttledRequests?: number;
}

export interface CheckpointedScan<C extends ScanCounters, F extends PageItems = 'sdk'> {
  options: ScanRunOptions<C>;
  checkpoint: C;
  /** The segments, pacing and page size of this pass. */
  scan: Omit<SegmentedScanOptions<F>, 'client' | 'table' | 'signal' | 'onPage' | 'onThrottle'>;
  /** Feeds a page to its segment's accumulator (synchronously: no tick per page). */
  add(page: ScanPage<F>): void;
  progress(): Progress;
  /** A deep copy of the checkpoint with the accumulators' state, so a save never sees a page half-applied. */
  save(): C;
}

/**
 * One pass of a segmented scan whose pages feed accumulators: progress at most every
 * progressEveryMs, a checkpoint every checkpointEveryMs (never two saves at once), throttling
 * said at once, and on failure or cancel a last checkpoint so nothing but the pages in flight is lost.
 * A page that failed while being accumulated (an item the body's split let through but JSON
 * cannot read) is never saved half-counted: the checkpoint before it stands.
 */
export async function runCheckpointedScan<C extends ScanCounters, F extends PageItems = 'sdk'>(
  run: CheckpointedScan<C, F>,
): Promise<'done' | 'stopped'> {
  const { options, checkpoint } = run;
  let lastProgress = 0;
  let lastCheckpoint = performance.now();
  let saving: Promise<void> | undefined;
  let halfApplied = false;
  const status = await segmentedScan<F>({
    ...run.scan,
    client: options.client,
    table: options.table,
    signal: options.signal,
    onThrottle() {
      checkpoint.throttledRequests = (checkpoint.throttledRequests ?? 0) + 1;
      // Said at once: the bar may stand still for seconds while the scan backs off.
      options.onProgress?.(run.progress());
    },
    onPage(page) {
      try {
        run.add(page);
      } catch (error) {
        // Part of the page may be counted while its cursor stays: a save now would count it
        // twice on resume. The last checkpoint (before this page) is the one to resume from.
        halfApplied = true;
        throw error;
      }
      checkpoint.pages += 1;
      if (checkpoint.scanned !== undefined) checkpoint.scanned += page.scannedCount;
      checkpoint.consumed += page.consumed;
      const now = performance.now();
      if (options.onProgress && now - lastProgress >= (options.progressEveryMs ?? 250)) {
        lastProgress = now;
        options.onProgress(run.progress());
      }
      if (options.onCheckpoint && !saving && now - lastCheckpoint >= (options.checkpointEveryMs ?? 5000)) {
        lastCheckpoint = now;
        // The cursor of this page moves right after this callback; save the state one tick later.
        saving = Promise.resolve()
          .then(() => (halfApplied ? undefined : options.onCheckpoint?.(run.save())))
          .finally(() => (saving = undefined));
      }
    },
  }).catch(async (error: unknown) => {
    await saving;
    if (!halfApplied) await options.onCheckpoint?.(run.save());
    options.onProgress?.(run.progress());
    throw error;
  });
  await saving;
  return status;
}
