import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { FixResult, PlainKey, PlannedUpdate } from '../../shared/ipc/migration';
import type { Progress } from '../../shared/ipc/operations';
import { toAppError } from '../core/to-app-error';
import { isMissingFile } from '../aws/atomic-file';
import { toSdkItem } from '../dynamo/marshal';
import { backoffMs, isThrottling, RateLimiter, sleep } from './rate-limiter';
import { toPlainKey } from './samples';
import { watchThrottling } from './throttle-watch';

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

  async function write(i: number, update: PlannedUpdate): Promise<void> {
    const key = toPlainKey(update.Key);
    let outcome: Outcome;
    for (let attempt = 0; ; attempt++) {
      try {
        const command = new UpdateItemCommand({
          TableName: options.table,
          Key: toSdkItem(update.Key),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: update.ConditionExpression,
          ExpressionAttributeNames: update.ExpressionAttributeNames,
          ExpressionAttributeValues: update.ExpressionAttributeValues
            ? toSdkItem(update.ExpressionAttributeValues)
            : undefined,
          ReturnConsumedCapacity: 'TOTAL',
        });
        const out = await options.client.send(watchThrottling(command, throttled));
        const consumed = out.ConsumedCapacity?.CapacityUnits ?? 1;
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
          outcome = { i, outcome: 'changed', key, consumed: 1 };
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
  }
  result.state = options.signal.aborted ? 'cancelled' : 'done';
  options.onProgress?.(progress());
  return result;
}
