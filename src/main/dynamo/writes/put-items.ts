import {
  type AttributeValue as SdkValue,
  BatchWriteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
  type WriteRequest as SdkWriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { defineOwn, ownValue } from '../../../shared/dynamo/proto-keys';
import type { ConflictPolicy } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { toAppError } from '../../core/to-app-error';
import type { RateLimiter } from '../rate-limiter';
import { abortFanOut, backoffMs, isRetryable, sleep, withBackoff } from '../../core/retry';
import { fromSdkItem, fromSdkValue } from '../marshal';
import type { JournalWriter } from '../../journal/journal-files';
import { announceWrites } from '../../journal/keep';
import { journaledPut, sameSdkItem } from './journaled-put';
import {
  attemptsOf,
  CONDITIONAL_FAILED,
  isConditionalFailure,
  isJobFatal,
  itemRefusal,
} from './write-errors';

export type SdkItem = Record<string, SdkValue>;

/** One item DynamoDB refused, kept with its key. */
export interface ItemFailure {
  key: Item;
  code: string;
  message: string;
}

export interface PutOutcome<E> {
  /** The entries DynamoDB confirmed written. */
  written: E[];
  /** With keepReplaced: the item each written entry replaced (null: none), by position in `written`. */
  replaced: (SdkItem | null)[];
  /** Entries the policy's condition left alone (the key was taken, or the stored item is newer). */
  skipped: number;
  failures: (ItemFailure & { entry: E })[];
  /**
   * How many entries, from the first, DynamoDB answered (written, skipped or failed): all of
   * them, unless a cancel cut the call short. An import resumes after the last of them.
   */
  answered: number;
}

export interface PutItemsOptions {
  client: DynamoDBClient;
  table: string;
  keys: KeySchema;
  policy: ConflictPolicy;
  signal: AbortSignal;
  limiter?: RateLimiter;
  /** What the limiter counts: items (default), or the write capacity units DynamoDB reports. */
  limiterUnit?: 'items' | 'capacity';
  onThrottle?(): void;
  /**
   * Keep the item each put replaced (ReturnValues ALL_OLD), for the undo journal. Overwrite then
   * goes out as PutItems, eight at a time, instead of BatchWriteItem, which returns nothing.
   */
  keepReplaced?: boolean;
  /**
   * With keepReplaced: the undo journal entry, which notes each put (the item it is conditioned
   * to replace, the item put) before it is sent and strikes one skipped by its condition.
   */
  journal?: JournalWriter;
}

/** Consumed write capacity, asked for only when the limiter counts it; items when DynamoDB says nothing. */
function spent(
  options: PutItemsOptions,
  items: number,
  consumed: { TableName?: string; CapacityUnits?: number }[] | undefined,
): number {
  if (options.limiterUnit !== 'capacity') return items;
  const units = (consumed ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
  return consumed && consumed.length > 0 ? units : items;
}

function capacityAsked(options: PutItemsOptions) {
  return options.limiterUnit === 'capacity' ? { ReturnConsumedCapacity: 'TOTAL' as const } : {};
}

const BATCH = 25;
/** Conditional puts in flight per call; a copy's segments multiply it. */
const CONCURRENCY = 8;
/** Rounds of UnprocessedItems before the rest is reported failed, each with its key. */
const MAX_UNPROCESSED_ROUNDS = 10;

/** The key attributes of an item, in tagged form, for reports. */
export function sdkKeyOf(item: SdkItem, keys: KeySchema): Item {
  const key: Item = {};
  for (const name of [keys.partitionKey.name, keys.sortKey?.name]) {
    if (name === undefined) continue;
    const value = ownValue(item, name);
    if (value) defineOwn(key, name, fromSdkValue(value));
  }
  return key;
}

/** A key as text, for matching an item to its UnprocessedItems entry. */
export function sdkKeyText(item: SdkItem, keys: KeySchema): string {
  return JSON.stringify(sdkKeyOf(item, keys));
}

/** One call's work: the items in SDK form, and what became of each, by position. */
interface Page<E> {
  options: PutItemsOptions;
  entries: readonly E[];
  items: SdkItem[];
  outcome: PutOutcome<E>;
}

/**
 * The one path that puts many items into a table (copy, file import, the playground's seed):
 * by the conflict policy, throttling retried, every refused item kept with its key and the
 * caller's entry (a copy's source item, an import's line). Overwrite goes through BatchWriteItem
 * (25 at a time, UnprocessedItems sent again with backoff); skip and newer-wins need a
 * condition, which BatchWriteItem cannot carry, so they are conditional PutItems, eight at a
 * time. A refusal every item would meet (read-only, credentials, a missing table) throws.
 *
 * A cancel ends the call at the next request and returns what DynamoDB confirmed. Requests in
 * flight are not aborted (as in write-each.ts): cut off after DynamoDB applied them, their items
 * would be stored but not counted, and an import's "N written" would not be what the table holds.
 */
export async function putItems<E>(
  options: PutItemsOptions,
  entries: readonly E[],
  itemOf: (entry: E) => SdkItem,
): Promise<PutOutcome<E>> {
  const page: Page<E> = {
    options,
    entries,
    items: entries.map((entry) => itemOf(entry)),
    outcome: { written: [], replaced: [], skipped: 0, failures: [], answered: 0 },
  };
  const at = page.items.map((_, i) => i);
  // Each of the eight puts in flight waits and retries on a signal of its own (see abortFanOut).
  const calls = abortFanOut(options.signal);
  // A put or a batch that ends without throwing has its answer in the outcome (put() throws only
  // for a cancel or a refusal that ends the call).
  const isAnswered = at.map(() => false);
  const putOn = async (n: number): Promise<void> => {
    const condition = conditionFor(options, page.items[n]);
    await calls.run((signal) => put({ ...page, options: { ...options, signal } }, n, condition));
    isAnswered[n] = true;
  };
  try {
    if (options.policy.policy === 'overwrite' && !options.keepReplaced) {
      for (let i = 0; i < at.length && !options.signal.aborted; i += BATCH) {
        const positions = at.slice(i, i + BATCH);
        await batch(page, positions);
        for (const n of positions) isAnswered[n] = true;
      }
    } else {
      for (let i = 0; i < at.length && !options.signal.aborted; i += CONCURRENCY)
        await settled(at.slice(i, i + CONCURRENCY).map(putOn));
    }
  } catch (error) {
    if (!options.signal.aborted) throw error;
  } finally {
    calls.close();
  }
  const unanswered = isAnswered.indexOf(false);
  page.outcome.answered = unanswered === -1 ? entries.length : unanswered;
  return page.outcome;
}

/** Waits for every write of a group (none is left in flight), then throws the first error. */
async function settled(writes: Promise<void>[]): Promise<void> {
  for (const result of await Promise.allSettled(writes))
    if (result.status === 'rejected') throw result.reason;
}

function itemAt<E>(page: Page<E>, n: number): SdkItem {
  return page.items[n] as SdkItem;
}

function entryAt<E>(page: Page<E>, n: number): E {
  return page.entries[n] as E;
}

function fail<E>(page: Page<E>, n: number, code: string, message: string): void {
  page.outcome.failures.push({
    key: sdkKeyOf(itemAt(page, n), page.options.keys),
    code,
    message,
    entry: entryAt(page, n),
  });
}

async function batch<E>(page: Page<E>, positions: number[]): Promise<void> {
  const { options, outcome } = page;
  let pending = positions;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_UNPROCESSED_ROUNDS) {
      for (const n of pending)
        fail(
          page,
          n,
          'UnprocessedItems',
          `DynamoDB left this item unprocessed ${MAX_UNPROCESSED_ROUNDS} times in a row; the table is throttling. Write it again later (a copy resumes where it stopped).`,
        );
      return;
    }
    await options.limiter?.take(options.signal);
    const requestItems: Record<string, SdkWriteRequest[]> = {};
    defineOwn(
      requestItems,
      options.table,
      pending.map((n) => ({ PutRequest: { Item: itemAt(page, n) } })),
    );
    let unprocessed: SdkWriteRequest[];
    let cost: number;
    try {
      const out = await withBackoff(
        () =>
          options.client.send(
            new BatchWriteItemCommand({ RequestItems: requestItems, ...capacityAsked(options) }),
          ),
        { signal: options.signal, onThrottle: () => onThrottle(options) },
      );
      unprocessed = (out.UnprocessedItems && ownValue(out.UnprocessedItems, options.table)) ?? [];
      cost = spent(options, pending.length - unprocessed.length, out.ConsumedCapacity);
    } catch (error) {
      if (isJobFatal(toAppError(error).code) || options.signal.aborted || isRetryable(error)) throw error;
      // One bad item (a wrong-typed index key, two items under one key) refuses the whole batch
      // without saying which: put them one by one to keep each failure with its key.
      await settled(pending.map((n) => put(page, n, undefined)));
      return;
    }
    options.limiter?.spend(cost);
    if (unprocessed.length === 0) {
      for (const n of pending) outcome.written.push(entryAt(page, n));
      return;
    }
    const left = new Set(
      unprocessed.flatMap((r) => (r.PutRequest?.Item ? [sdkKeyText(r.PutRequest.Item, options.keys)] : [])),
    );
    const next: number[] = [];
    for (const n of pending)
      if (left.has(sdkKeyText(itemAt(page, n), options.keys))) next.push(n);
      else outcome.written.push(entryAt(page, n));
    pending = next;
    if (pending.length > 0) {
      onThrottle(options);
      await sleep(backoffMs(round + 1), options.signal);
    }
  }
}

function onThrottle(options: PutItemsOptions): void {
  options.limiter?.throttled();
  options.onThrottle?.();
}

type Condition = {
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: SdkItem;
};

/** The condition a policy puts on each item, or undefined for a plain put. */
function conditionFor(options: PutItemsOptions, item: SdkItem | undefined): Condition | undefined {
  const { policy, keys } = options;
  if (policy.policy === 'overwrite' || !item) return undefined;
  const names: Record<string, string> = { '#k': keys.partitionKey.name };
  const free = 'attribute_not_exists(#k)';
  if (policy.policy === 'skip') return { ConditionExpression: free, ExpressionAttributeNames: names };
  const version = ownValue(item, policy.attribute);
  // An item without the attribute cannot be newer than anything: it is written only where no item is.
  if (!version) return { ConditionExpression: free, ExpressionAttributeNames: names };
  return {
    ConditionExpression: `${free} OR #v < :v`,
    ExpressionAttributeNames: { ...names, '#v': policy.attribute },
    ExpressionAttributeValues: { ':v': version },
  };
}

async function put<E>(page: Page<E>, n: number, condition: Condition | undefined): Promise<void> {
  const { options, outcome } = page;
  if (options.keepReplaced) return putJournaled(page, n);
  try {
    await options.limiter?.take(options.signal);
    const out = await withBackoff(
      () =>
        options.client.send(
          new PutItemCommand({
            TableName: options.table,
            Item: itemAt(page, n),
            ...condition,
            ...capacityAsked(options),
            ...(condition ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
          }),
        ),
      { signal: options.signal, onThrottle: () => onThrottle(options) },
    );
    options.limiter?.spend(spent(options, 1, out.ConsumedCapacity ? [out.ConsumedCapacity] : undefined));
    outcome.written.push(entryAt(page, n));
  } catch (error) {
    options.limiter?.spend(1);
    // A retry whose first attempt was applied (its answer lost) meets our own item: written, not skipped.
    if (
      isConditionalFailure(error) &&
      attemptsOf(error) > 1 &&
      error.Item &&
      sameSdkItem(error.Item, itemAt(page, n))
    ) {
      outcome.written.push(entryAt(page, n));
      return;
    }
    const appError = itemRefusal(error, options.signal);
    if (appError.code === CONDITIONAL_FAILED) outcome.skipped++;
    else fail(page, n, appError.code, appError.message);
  }
}

/** keepReplaced: the put conditioned on what it replaces, so a retry cannot journal our own item. */
async function putJournaled<E>(page: Page<E>, n: number): Promise<void> {
  const { options, outcome } = page;
  try {
    await options.limiter?.take(options.signal);
    const item = itemAt(page, n);
    const { journal } = options;
    const key = sdkKeyOf(item, options.keys);
    const result = await journaledPut(
      {
        client: options.client,
        table: options.table,
        keys: options.keys,
        policy: options.policy,
        signal: options.signal,
        capacity: options.limiterUnit === 'capacity',
        onThrottle: () => onThrottle(options),
        ...(journal
          ? {
              announce: (replacing: SdkItem | null) =>
                announceWrites(journal, [
                  { key, before: replacing ? fromSdkItem(replacing) : null, after: fromSdkItem(item) },
                ]),
            }
          : {}),
      },
      item,
    );
    options.limiter?.spend(result.kind === 'written' && result.consumed !== undefined ? result.consumed : 1);
    if (result.kind === 'skipped') {
      outcome.skipped++;
      await journal?.refuse(key).catch(() => undefined);
      return;
    }
    outcome.written.push(entryAt(page, n));
    outcome.replaced.push(result.replaced);
  } catch (error) {
    options.limiter?.spend(1);
    const appError = itemRefusal(error, options.signal);
    fail(page, n, appError.code, appError.message);
  }
}
