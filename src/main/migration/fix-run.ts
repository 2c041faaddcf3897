import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/dynamo/attribute-value';
import type { FixResult, PlainKey, PlannedUpdate } from '../../shared/ipc/migration';
import type { Progress } from '../../shared/ipc/operations';
import { toAppError } from '../core/to-app-error';
import { isMissingFile } from '../files/atomic-file';
import type { ItemTarget } from '../dynamo/items/item-access';
import { getItem } from '../dynamo/items/single-item';
import { sendPlannedUpdate, updatedNames } from '../dynamo/writes/fix-update';
import { attemptsOf } from '../dynamo/writes/write-errors';
import { consistentReader } from '../dynamo/items/item-access';
import type { JournalPair, WriteIntent } from '../journal/journal-files';
import { announceWrites, keepForUndo } from '../journal/keep';
import { resolveIntent } from '../journal/resolve-intents';
import { withNamesOf } from '../../shared/dynamo/diff';
import { backoffMs, isThrottling, sleep } from '../core/retry';
import { RateLimiter } from '../dynamo/rate-limiter';
import { toPlainKey } from './samples';

export interface RunFixOptions {
  client: DynamoDBClient;
  table: string;
  planId: string;
  planFile: string;
  /** JSON lines {i, outcome, ...}: appended as writes finish, read back to resume. */
  resultsFile: string;
  total: number;
  signal: AbortSignal;
  /** Write capacity units per second (default 50). */
  writesPerSecond?: number;
  concurrency?: number;
  onProgress?(progress: Progress): void;
  /**
   * The app's write door for the table: each write is then journaled for undo (noted before it
   * is sent, with the item as read; what it left from its own answer, ALL_NEW) and told to the
   * open views. The CLI has none.
   */
  target?: ItemTarget;
  /** The user's words for the journal entry (default "Pre-flight fix of <table>"). */
  reason?: string;
}

/** Written once per run that DynamoDB throttled, so a resumed run's result counts every run's. */
type ThrottledLine = { throttled: number };

type Outcome = {
  i: number;
  outcome: 'written' | 'changed' | 'failed';
  key: PlainKey;
  code?: string;
  message?: string;
  consumed?: number;
};

const MAX_LISTED = 50;

type Intent = WriteIntent & { touched: string[] };

/** Read through a call: the signal flips during an await, which type narrowing cannot see. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

function tally(result: FixResult, o: Outcome): void {
  result.consumedWriteCapacity += o.consumed ?? 0;
  if (o.outcome === 'written') result.written += 1;
  else if (o.outcome === 'changed') {
    result.skippedChanged += 1;
    if (result.changedSamples.length < MAX_LISTED) result.changedSamples.push(o.key);
  } else {
    result.failed += 1;
    if (result.failures.length < MAX_LISTED)
      result.failures.push({ key: o.key, code: o.code ?? 'Unknown', message: o.message ?? '' });
  }
}

async function previousOutcomes(file: string, result: FixResult): Promise<Set<number>> {
  const done = new Set<number>();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return done;
    throw error;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line) as Outcome | ThrottledLine;
    if ('throttled' in o) {
      result.throttledRequests = (result.throttledRequests ?? 0) + o.throttled;
      continue;
    }
    // A write that failed for a passing reason (throttling, network) is tried again on resume.
    if (o.outcome === 'failed') continue;
    done.add(o.i);
    tally(result, o);
  }
  return done;
}

/**
 * Sends the planned UpdateItems, paced by consumed write capacity, a few at a time. A failed
 * condition means someone changed the item since the dry run: it is counted, never retried
 * blindly. Cancel stops sending new writes but lets the ones in flight finish, so the results
 * file always says what happened to each item and a resume skips exactly those.
 */
export async function runFixPlan(options: RunFixOptions): Promise<FixResult> {
  const result: FixResult = {
    planId: options.planId,
    state: 'running',
    total: options.total,
    written: 0,
    skippedChanged: 0,
    failed: 0,
    consumedWriteCapacity: 0,
    throttledRequests: 0,
    changedSamples: [],
    failures: [],
  };
  const done = await previousOutcomes(options.resultsFile, result);
  const failedBefore = result.failed;
  const throttledBefore = result.throttledRequests ?? 0;
  const limiter = new RateLimiter(options.writesPerSecond ?? 50);
  const results = createWriteStream(options.resultsFile, { flags: 'a', encoding: 'utf8', mode: 0o600 });
  const inFlight = new Set<Promise<void>>();
  const concurrency = options.concurrency ?? 4;
  let lastProgress = 0;
  const progress = (): Progress => {
    const processed = result.written + result.skippedChanged + result.failed - failedBefore;
    return {
      items: processed,
      pages: 0,
      consumedCapacity: Math.round(result.consumedWriteCapacity * 10) / 10,
      ...(options.total > 0 ? { fraction: Math.min(1, processed / options.total) } : {}),
      message: `${result.written} written · ${result.skippedChanged} skipped (changed) · ${result.failed} failed of ${options.total}${throttledText()}`,
    };
  };
  const throttledText = (): string => {
    const throttled = result.throttledRequests ?? 0;
    if (throttled === 0) return '';
    const slowed =
      limiter.currentRate < limiter.targetPerSecond
        ? `slowed to ${Math.round(limiter.currentRate * 10) / 10} WCU/s · `
        : '';
    return ` · ${slowed}throttled ${throttled.toLocaleString('en-US')}×`;
  };
  // Every refused attempt, also those the SDK retried by itself: each halves the pace.
  const throttled = (): void => {
    limiter.throttled();
    result.throttledRequests = (result.throttledRequests ?? 0) + 1;
    // Said at once: progress may stand still for seconds while the writes back off.
    options.onProgress?.(progress());
  };

  const target = options.target;
  const journal = target?.journal('bulk-update', options.reason ?? `Pre-flight fix of ${options.table}`);
  const pairs: JournalPair[] = [];
  /**
   * Before a journaled write is sent: the item as a consistent read finds it, noted in the journal
   * with the attributes the update writes, so a run killed meanwhile is resolved by reading.
   */
  const announce = async (update: PlannedUpdate): Promise<Intent | undefined> => {
    if (!target || !journal) return undefined;
    const before = await getItem(target, update.Key, true);
    const intent = { key: update.Key, before, after: null, touched: updatedNames(update) };
    await announceWrites(journal, [intent]);
    return intent;
  };
  /**
   * What the fix left is the update's own answer (ALL_NEW), never a read after it, which could
   * take a write landing in between for the fix's own. "Before" is that item with the updated
   * attributes as read just before the write (the plan's condition held them as the scan saw).
   */
  const keep = async (intent: Intent | undefined, stored: Item | null): Promise<void> => {
    if (!target || !journal || !intent) return;
    const before =
      intent.before && stored ? withNamesOf(stored, intent.before, intent.touched) : intent.before;
    await target.record([{ key: intent.key, item: stored }]);
    pairs.push({ key: intent.key, before, after: stored });
    if (pairs.length >= 100) await journal.add(pairs.splice(0)).catch(() => undefined);
  };
  /** A refused condition on a retried send may be the fix's own first attempt: read to tell. */
  const refusedOwn = async (intent: Intent | undefined, error: unknown): Promise<boolean> => {
    if (!target || !journal || !intent) return false;
    const resolved =
      attemptsOf(error) > 1
        ? await resolveIntent(intent, options.table, consistentReader(target.client)).catch(() => undefined)
        : undefined;
    if (resolved?.type === 'landed') {
      await keep(intent, resolved.pair.after);
      return true;
    }
    await journal.refuse(intent.key).catch(() => undefined);
    return false;
  };

  async function write(i: number, update: PlannedUpdate): Promise<void> {
    const key = toPlainKey(update.Key);
    let outcome: Outcome;
    let intent: Intent | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        intent ??= await announce(update);
        const out = await sendPlannedUpdate(options.client, options.table, update, {
          returnNew: target !== undefined,
          onThrottled: throttled,
        });
        await keep(intent, out.stored);
        const consumed = out.consumed;
        limiter.spend(consumed);
        limiter.succeeded();
        outcome = { i, outcome: 'written', key, consumed };
        break;
      } catch (error) {
        // The SDK gave up on this write; the watch already slowed the limiter for each refusal.
        if (isThrottling(error) && attempt < 10 && !options.signal.aborted) {
          await sleep(backoffMs(attempt + 3)).catch(() => undefined);
          continue;
        }
        const app = toAppError(error);
        if (app.code === 'ConditionalCheckFailedException')
          outcome = (await refusedOwn(intent, error))
            ? { i, outcome: 'written', key, consumed: 1 }
            : { i, outcome: 'changed', key, consumed: 1 };
        else outcome = { i, outcome: 'failed', key, code: app.code, message: app.message };
        break;
      }
    }
    tally(result, outcome);
    results.write(`${JSON.stringify(outcome)}\n`);
    const now = performance.now();
    if (now - lastProgress >= 250) {
      lastProgress = now;
      options.onProgress?.(progress());
    }
  }

  const lines = createInterface({ input: createReadStream(options.planFile, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (options.signal.aborted) break;
      if (!line) continue;
      const entry = JSON.parse(line) as { i: number; update: PlannedUpdate };
      if (done.has(entry.i)) continue;
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      await limiter.take(options.signal).catch(() => undefined);
      if (isAborted(options.signal)) break;
      const p: Promise<void> = write(entry.i, entry.update).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  } finally {
    lines.close();
    await Promise.all(inFlight);
    const throttledNow = (result.throttledRequests ?? 0) - throttledBefore;
    if (throttledNow > 0)
      results.write(`${JSON.stringify({ throttled: throttledNow } satisfies ThrottledLine)}\n`);
    results.end();
    await once(results, 'close');
    if (journal) Object.assign(result, await keepForUndo(journal, pairs.splice(0)));
  }
  result.state = options.signal.aborted ? 'cancelled' : 'done';
  options.onProgress?.(progress());
  return result;
}
