import type { z } from 'zod';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { bulkActionProblem, planBulkRequest } from '../../../shared/dynamo/bulk-plan';
import { needsTypedConfirmation } from '../../../shared/dynamo/confirmation';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { BulkReport, bulkInput } from '../../../shared/ipc/items';
import type { CoreContext, WrittenItem } from '../../core/context';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { toAppError } from '../../core/to-app-error';
import type { ItemTarget } from '../items/item-access';
import { withBackoff } from './backoff';
import { assertConfirmed, assertWritable } from './guards';
import { sendRequest } from './sdk-requests';
import { CONDITIONAL_FAILED, storedItem } from './write-errors';

type BulkInput = z.output<typeof bulkInput>;

const SAMPLE = 5;
const WINDOW = 500;
const CONCURRENCY = 8;
const MAX_LISTED_FAILURES = 1000;
const PROGRESS_EVERY_MS = 250;

/** Errors that every item would hit the same way: stop the whole job instead of failing each item. */
const FATAL = new Set([
  ErrorCodes.readOnly,
  ErrorCodes.credentialsExpired,
  'ExpiredTokenException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ResourceNotFoundException',
  'CredentialsProviderError',
  'ECONNREFUSED',
  'ENOTFOUND',
]);

async function sourceCount(ctx: CoreContext, input: BulkInput): Promise<{ count: number; sample: Item[] }> {
  if ('items' in input.source)
    return { count: input.source.items.length, sample: input.source.items.slice(0, SAMPLE) };
  const window = await ctx.resultSets.window(input.source.resultSetId, 0, SAMPLE);
  return { count: window.total, sample: window.rows };
}

function writeKind(input: BulkInput): 'bulk-delete' | 'bulk-update' {
  return input.action.type === 'delete' ? 'bulk-delete' : 'bulk-update';
}

function check(t: ItemTarget, input: BulkInput): void {
  const problem = bulkActionProblem({ table: t.info.table, keys: t.info.keys }, input.action);
  if (problem) throw new AppFailure(ErrorCodes.invalidInput, problem);
}

export async function previewBulk(ctx: CoreContext, t: ItemTarget, input: BulkInput) {
  check(t, input);
  const { count, sample } = await sourceCount(ctx, input);
  const first = sample[0];
  const target = { table: t.info.table, keys: t.info.keys };
  return {
    count,
    sample,
    request: first ? { ...planBulkRequest(target, first, input.action, input.conditionOnSeen) } : null,
    needsConfirmation: needsTypedConfirmation(writeKind(input), count, t.connection.isProduction),
  };
}

/** Validates and confirms in main before the operation starts; returns the work to run. */
export async function prepareBulk(ctx: CoreContext, t: ItemTarget, input: BulkInput) {
  assertWritable(t.connection);
  check(t, input);
  const { count } = await sourceCount(ctx, input);
  assertConfirmed(t.connection, t.info.table, writeKind(input), count, input.confirmTable);
  return (run: OperationRun) => runBulk(ctx, t, input, count, run);
}

async function* itemsOf(ctx: CoreContext, input: BulkInput): AsyncGenerator<Item[]> {
  if ('items' in input.source) {
    for (let i = 0; i < input.source.items.length; i += WINDOW) yield input.source.items.slice(i, i + WINDOW);
    return;
  }
  for (let offset = 0; ; offset += WINDOW) {
    const window = await ctx.resultSets.window(input.source.resultSetId, offset, WINDOW);
    if (window.rows.length === 0) return;
    yield window.rows;
  }
}

/**
 * One conditional write per item (BatchWriteItem has no conditions), eight at a time, each
 * retried with backoff when throttled. Conflicts are counted, not fatal: the item changed
 * after it was read, so it is left alone and reported.
 */
async function runBulk(
  ctx: CoreContext,
  t: ItemTarget,
  input: BulkInput,
  total: number,
  run: OperationRun,
): Promise<OperationOutcome> {
  const target = { table: t.info.table, keys: t.info.keys };
  const report: BulkReport = { succeeded: 0, conflicts: 0, failed: 0, failures: [] };
  const verb = input.action.type === 'delete' ? 'deleted' : 'updated';
  const progress = () => {
    const done = report.succeeded + report.conflicts + report.failed;
    return {
      items: done,
      pages: 0,
      consumedCapacity: 0,
      fraction: total > 0 ? Math.min(1, done / total) : 1,
      message: `${report.succeeded} ${verb}, ${report.conflicts} changed since read, ${report.failed} failed`,
    };
  };
  const written: WrittenItem[] = [];
  const one = async (item: Item): Promise<void> => {
    try {
      const request = planBulkRequest(target, item, input.action, input.conditionOnSeen);
      const response = await withBackoff(() => sendRequest(t.client, request, run.signal), {
        signal: run.signal,
      });
      report.succeeded++;
      written.push({ key: keyOf(item, t.info.keys), item: storedItem(response.Attributes) });
    } catch (error) {
      const appError = toAppError(error);
      if (FATAL.has(appError.code) || run.signal.aborted) throw error;
      if (appError.code === CONDITIONAL_FAILED) report.conflicts++;
      else report.failed++;
      if (report.failures.length < MAX_LISTED_FAILURES) {
        report.failures.push({
          key: keyOf(item, t.info.keys),
          code: appError.code,
          message: appError.message,
        });
      }
    }
  };
  // The job reads its items from a result set by offset: rows leaving it meanwhile would shift
  // the rest past the reader, so that set hears of the writes once the job ends.
  const readsResultSet = !('items' in input.source);
  try {
    await writeAll();
  } finally {
    await t.record(written.splice(0));
  }
  return { progress: progress(), value: report };

  async function writeAll(): Promise<void> {
    let lastEmit = Date.now();
    for await (const chunk of itemsOf(ctx, input)) {
      for (let i = 0; i < chunk.length && !run.signal.aborted; i += CONCURRENCY) {
        await Promise.all(chunk.slice(i, i + CONCURRENCY).map(one));
        if (!readsResultSet) await t.record(written.splice(0));
        // A progress event at most every quarter second: a million items must not mean a million events.
        if (Date.now() - lastEmit >= PROGRESS_EVERY_MS) {
          lastEmit = Date.now();
          run.emit({ type: 'progress', progress: progress() });
        }
      }
      if (run.signal.aborted) break;
    }
  }
}
