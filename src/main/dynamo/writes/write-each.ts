import type { Item } from '../../../shared/dynamo/attribute-value';
import { applyBulkUpdate } from '../../../shared/dynamo/bulk-apply';
import { planBulkRequest, type BulkTarget } from '../../../shared/dynamo/bulk-plan';
import { keyOf } from '../../../shared/dynamo/validate-item';
import type { BulkAction, BulkReport } from '../../../shared/ipc/items';
import type { WrittenItem } from '../../resultsets/types';
import type { OperationRun } from '../../core/operations';
import type { ItemTarget } from '../items/item-access';
import { withBackoff } from '../../core/retry';
import { writeBulkItem, type BulkItemWrite } from './bulk-item';
import { sendRequest } from './sdk-requests';
import { CONDITIONAL_FAILED, itemRefusal, storedItem } from './write-errors';

export const CONCURRENCY = 8;
const MAX_LISTED_FAILURES = 1000;

export interface WriteEachOptions {
  action: BulkAction;
  conditionOnSeen: boolean;
  /** The writes of each concurrent batch, even one a fatal error or a cancel cut short. */
  record(written: WrittenItem[]): Promise<void>;
  /** After each batch that ran to its end: progress, pacing. */
  afterBatch?(report: BulkReport): Promise<void> | void;
  /**
   * Each item written, for the undo journal: its key, the item as read, the whole item before
   * the write and what the write left (null for a delete). Given, every write is read first and
   * conditioned on what it found (bulk-item.ts), so a retried write cannot corrupt the journal.
   */
  onWritten?(key: Item, read: Item, before: Item, after: Item | null): void;
  /** Before each journaled write is sent: the item as read and what the write should leave. */
  onIntent?(key: Item, before: Item, after: Item | null): Promise<void>;
  /** A journaled write's condition failed: it did not happen. */
  onRefused?(key: Item): Promise<void>;
}

/** One item's write: journaled ones through writeBulkItem, the rest (a purge) as planned. */
async function writeOne(
  t: ItemTarget,
  target: BulkTarget,
  item: Item,
  options: WriteEachOptions,
  signal: AbortSignal,
): Promise<{ before: Item | null; after: Item | null }> {
  if (options.onWritten) {
    const key = keyOf(item, t.info.keys);
    const announce = options.onIntent
      ? (write: BulkItemWrite) => options.onIntent!(key, write.before, write.after)
      : undefined;
    return writeBulkItem(t, item, options.action, options.conditionOnSeen, signal, announce);
  }
  const request = planBulkRequest(target, item, options.action, options.conditionOnSeen);
  // The cancel does not abort a write in flight: cut off after DynamoDB applied it, the item
  // would be gone without being counted or told to the grids. The batch ends, then the job.
  const response = await withBackoff(() => sendRequest(t.client, request), { signal });
  const action = options.action;
  const stored = storedItem(response.Attributes) ?? item;
  return { before: null, after: action.type === 'delete' ? null : applyBulkUpdate(stored, action) };
}

export const emptyReport = (): BulkReport => ({ succeeded: 0, conflicts: 0, failed: 0, failures: [] });

/**
 * The one bulk write path (bulk:start and tables:purge): one conditional write per item
 * (BatchWriteItem has no conditions), eight at a time, each retried with backoff when throttled.
 * Conflicts are counted, not fatal: the item changed (or went) after it was read, so it is left
 * alone and reported. Stops at the next batch once the run is cancelled.
 */
export async function writeEach(
  t: ItemTarget,
  chunks: AsyncIterable<Item[]>,
  report: BulkReport,
  run: OperationRun,
  options: WriteEachOptions,
): Promise<void> {
  const target: BulkTarget = { table: t.info.name, keys: t.info.keys };
  const one = async (item: Item, written: WrittenItem[]): Promise<void> => {
    try {
      const key = keyOf(item, t.info.keys);
      const { before, after } = await writeOne(t, target, item, options, run.signal);
      report.succeeded++;
      written.push({ key, item: after });
      if (before) options.onWritten?.(key, item, before, after);
    } catch (error) {
      const appError = itemRefusal(error, run.signal);
      if (appError.code === CONDITIONAL_FAILED) {
        report.conflicts++;
        await options.onRefused?.(keyOf(item, t.info.keys)).catch(() => undefined);
      } else report.failed++;
      if (report.failures.length < MAX_LISTED_FAILURES) {
        report.failures.push({
          key: keyOf(item, t.info.keys),
          code: appError.code,
          message: appError.message,
        });
      }
    }
  };
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length && !run.signal.aborted; i += CONCURRENCY) {
      const written: WrittenItem[] = [];
      try {
        await Promise.all(chunk.slice(i, i + CONCURRENCY).map((item) => one(item, written)));
      } finally {
        // Writes that landed before a fatal error or a cancel are still told to the result sets.
        await options.record(written);
      }
      await options.afterBatch?.(report);
    }
    if (run.signal.aborted) break;
  }
}
