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
import { backoffMs, type RateLimiter, sleep } from '../../migration/rate-limiter';
import { fromSdkValue } from '../marshal';
import { isThrottled, withBackoff } from '../writes/backoff';
import { CONDITIONAL_FAILED, isJobFatal, itemRefusal } from '../writes/write-errors';

export type SdkItem = Record<string, SdkValue>;

export interface CopyFailure {
  key: Item;
  code: string;
  message: string;
}

export interface WriteOutcome {
  written: SdkItem[];
  skipped: number;
  failures: CopyFailure[];
}

export interface CopyWriterOptions {
  client: DynamoDBClient;
  table: string;
  keys: KeySchema;
  policy: ConflictPolicy;
  signal: AbortSignal;
  limiter?: RateLimiter;
  /** What the limiter counts: items (default), or the write capacity units DynamoDB reports. */
  limiterUnit?: 'items' | 'capacity';
  onThrottle?(): void;
}

/** Consumed write capacity, asked for only when the limiter counts it; items when DynamoDB says nothing. */
function spent(
  options: CopyWriterOptions,
  items: number,
  consumed: { TableName?: string; CapacityUnits?: number }[] | undefined,
): number {
  if (options.limiterUnit !== 'capacity') return items;
  const units = (consumed ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
  return consumed && consumed.length > 0 ? units : items;
}

function capacityAsked(options: CopyWriterOptions) {
  return options.limiterUnit === 'capacity' ? { ReturnConsumedCapacity: 'TOTAL' as const } : {};
}

const BATCH = 25;
/** Conditional puts in flight per page; the segments multiply it. */
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

function isFatal(error: unknown): boolean {
  return isJobFatal(toAppError(error).code);
}

/**
 * Writes one page of mapped items by the conflict policy. Overwrite goes through BatchWriteItem
 * (25 at a time, UnprocessedItems sent again with backoff); skip and newer-wins need a condition,
 * which BatchWriteItem cannot carry, so they are conditional PutItems. A refused item is kept
 * with its key; a refusal every item would meet (read-only, credentials, a missing table) throws.
 */
export async function writePage(options: CopyWriterOptions, items: SdkItem[]): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { written: [], skipped: 0, failures: [] };
  if (options.policy.policy === 'overwrite') {
    for (let i = 0; i < items.length && !options.signal.aborted; i += BATCH)
      await batch(options, items.slice(i, i + BATCH), outcome);
  } else {
    for (let i = 0; i < items.length && !options.signal.aborted; i += CONCURRENCY)
      await Promise.all(
        items.slice(i, i + CONCURRENCY).map((item) => conditionalPut(options, item, outcome)),
      );
  }
  return outcome;
}

async function batch(options: CopyWriterOptions, items: SdkItem[], outcome: WriteOutcome): Promise<void> {
  let pending: SdkItem[] = items;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_UNPROCESSED_ROUNDS) {
      for (const item of pending)
        outcome.failures.push({
          key: sdkKeyOf(item, options.keys),
          code: 'UnprocessedItems',
          message: `DynamoDB left this item unprocessed ${MAX_UNPROCESSED_ROUNDS} times in a row; the table is throttling. Resume the copy later.`,
        });
      return;
    }
    await options.limiter?.take(options.signal);
    const requestItems: Record<string, SdkWriteRequest[]> = {};
    defineOwn(
      requestItems,
      options.table,
      pending.map((Item) => ({ PutRequest: { Item } })),
    );
    let unprocessed: SdkWriteRequest[];
    let cost: number;
    try {
      const out = await withBackoff(
        () =>
          options.client.send(
            new BatchWriteItemCommand({ RequestItems: requestItems, ...capacityAsked(options) }),
            { abortSignal: options.signal },
          ),
        { signal: options.signal, onThrottle: () => onThrottle(options) },
      );
      unprocessed = (out.UnprocessedItems && ownValue(out.UnprocessedItems, options.table)) ?? [];
      cost = spent(options, pending.length - unprocessed.length, out.ConsumedCapacity);
    } catch (error) {
      if (isFatal(error) || options.signal.aborted || isThrottled(error)) throw error;
      // One bad item (a wrong-typed index key, two items mapped to one key) refuses the whole
      // batch without saying which: put them one by one to keep each failure with its key.
      await Promise.all(pending.map((item) => put(options, item, outcome, undefined)));
      return;
    }
    options.limiter?.spend(cost);
    if (unprocessed.length === 0) {
      outcome.written.push(...pending);
      return;
    }
    const left = new Set(
      unprocessed.flatMap((r) => (r.PutRequest?.Item ? [sdkKeyText(r.PutRequest.Item, options.keys)] : [])),
    );
    const next: SdkItem[] = [];
    for (const item of pending)
      (left.has(sdkKeyText(item, options.keys)) ? next : outcome.written).push(item);
    pending = next;
    if (pending.length > 0) {
      onThrottle(options);
      await sleep(backoffMs(round + 1), options.signal);
    }
  }
}

function onThrottle(options: CopyWriterOptions): void {
  options.limiter?.throttled();
  options.onThrottle?.();
}

/** The condition a policy puts on each item, or undefined for a plain put. */
function conditionFor(
  policy: ConflictPolicy,
  keys: KeySchema,
  item: SdkItem,
):
  | {
      ConditionExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues?: SdkItem;
    }
  | undefined {
  if (policy.policy === 'overwrite') return undefined;
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

function conditionalPut(options: CopyWriterOptions, item: SdkItem, outcome: WriteOutcome): Promise<void> {
  return put(options, item, outcome, conditionFor(options.policy, options.keys, item));
}

async function put(
  options: CopyWriterOptions,
  item: SdkItem,
  outcome: WriteOutcome,
  condition: ReturnType<typeof conditionFor>,
): Promise<void> {
  try {
    await options.limiter?.take(options.signal);
    const out = await withBackoff(
      () =>
        options.client.send(
          new PutItemCommand({
            TableName: options.table,
            Item: item,
            ...condition,
            ...capacityAsked(options),
          }),
          { abortSignal: options.signal },
        ),
      { signal: options.signal, onThrottle: () => onThrottle(options) },
    );
    options.limiter?.spend(spent(options, 1, out.ConsumedCapacity ? [out.ConsumedCapacity] : undefined));
    outcome.written.push(item);
  } catch (error) {
    options.limiter?.spend(1);
    const appError = itemRefusal(error, options.signal);
    if (appError.code === CONDITIONAL_FAILED) outcome.skipped++;
    else
      outcome.failures.push({
        key: sdkKeyOf(item, options.keys),
        code: appError.code,
        message: appError.message,
      });
  }
}
