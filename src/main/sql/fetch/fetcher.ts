import {
  BatchGetItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
  type AttributeValue as SdkValue,
} from '@aws-sdk/client-dynamodb';
import { keyAttributeNames } from '../../../shared/dynamo/key-model';
import { AppFailure } from '../../../shared/errors';
import { ColumnarTable } from '../executor/table';
import type { FetchSpec } from '../planner/plan';
import type { ReadBudget } from './read-budget';
import { expressionParts, toSdkItem } from './requests';

type SdkItem = Record<string, SdkValue>;

export interface FetchCounters {
  items: number;
  pages: number;
  consumedCapacity: number;
  scanned: number;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Called after every page with the counters of this fetch so far. */
  onPage?: (counters: FetchCounters) => void;
  /** Shared with the statement's other fetches: when it is spent, every one of them stops. */
  budget?: ReadBudget;
}

export interface FetchOutcome extends FetchCounters {
  table: ColumnarTable;
  /** The read stopped at spec.maxItems or the budget: the result covers only part of the data. */
  truncated: boolean;
}

/** A Scan or Query that keeps returning empty pages still ends: at most this many pages. */
const MAX_PAGES = 200_000;
const BATCH_SIZE = 100;
const MAX_BATCH_ATTEMPTS = 8;

function keyAttributes(spec: FetchSpec): string[] {
  const keys = [spec.table.keys, ...spec.table.indexes.map((i) => i.keys)].flatMap(keyAttributeNames);
  return [...new Set(keys)];
}

function abortable(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new AppFailure('Cancelled', 'The query was cancelled.'));
    });
  });
}

/**
 * Runs one planned read, appending each page to a columnar table as it arrives (so loading
 * happens while the next page is on the wire). Stops at spec.maxItems; passes the abort signal
 * to every SDK call so cancel stops the request in flight.
 */
export async function runFetch(
  client: DynamoDBClient,
  spec: FetchSpec,
  options: FetchOptions = {},
): Promise<FetchOutcome> {
  const table = new ColumnarTable(spec.table.name, keyAttributes(spec));
  const counters: FetchCounters = { items: 0, pages: 0, consumedCapacity: 0, scanned: 0 };
  let truncated = false;
  const send = { abortSignal: options.signal };
  const accept = (items: SdkItem[] | undefined, capacity: number | undefined, scanned?: number): boolean => {
    const room = Math.min(spec.maxItems - counters.items, options.budget?.room() ?? Infinity);
    const page = items ?? [];
    const kept = page.length > room ? page.slice(0, room) : page;
    if (page.length > room) truncated = true;
    table.appendSdkItems(kept);
    counters.items += kept.length;
    counters.pages += 1;
    counters.consumedCapacity += capacity ?? 0;
    counters.scanned += scanned ?? page.length;
    options.budget?.spend(kept.length, capacity ?? 0);
    options.onPage?.({ ...counters });
    return counters.items < spec.maxItems && !options.budget?.isSpent();
  };
  const common = { TableName: spec.table.name, ReturnConsumedCapacity: 'TOTAL' as const };
  const access = spec.access;
  if (options.budget?.isSpent()) return { ...counters, table, truncated: true };

  if (access.operation === 'GetItem') {
    const parts = expressionParts(spec);
    const response = await client.send(
      new GetItemCommand({
        ...common,
        Key: toSdkItem(access.keys[0]!),
        ProjectionExpression: parts.ProjectionExpression,
        ExpressionAttributeNames: parts.ExpressionAttributeNames,
      }),
      send,
    );
    accept(response.Item ? [response.Item] : [], response.ConsumedCapacity?.CapacityUnits, 1);
    return { ...counters, table, truncated };
  }

  if (access.operation === 'BatchGetItem') {
    const parts = expressionParts(spec);
    for (let start = 0; start < access.keys.length; start += BATCH_SIZE) {
      let keys: SdkItem[] = access.keys.slice(start, start + BATCH_SIZE).map(toSdkItem);
      // DynamoDB may leave some keys unprocessed under load; retry those with backoff, bounded.
      for (let attempt = 0; keys.length > 0; attempt++) {
        if (options.budget?.isSpent()) return { ...counters, table, truncated: true };
        if (attempt === MAX_BATCH_ATTEMPTS)
          throw new AppFailure(
            'ProvisionedThroughputExceededException',
            `DynamoDB kept ${keys.length} keys unprocessed after ${MAX_BATCH_ATTEMPTS} attempts; try again later.`,
            true,
          );
        if (attempt > 0) await abortable(Math.min(2000, 50 * 2 ** attempt), options.signal);
        const response = await client.send(
          new BatchGetItemCommand({
            RequestItems: {
              [spec.table.name]: {
                Keys: keys,
                ProjectionExpression: parts.ProjectionExpression,
                ExpressionAttributeNames: parts.ExpressionAttributeNames,
              },
            },
            ReturnConsumedCapacity: 'TOTAL',
          }),
          send,
        );
        const capacity = response.ConsumedCapacity?.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        accept(response.Responses?.[spec.table.name], capacity, keys.length);
        keys = response.UnprocessedKeys?.[spec.table.name]?.Keys ?? [];
      }
    }
    return { ...counters, table, truncated };
  }

  if (access.operation === 'Query') {
    for (let p = 0; p < access.partition.values.length && !truncated; p++) {
      const parts = expressionParts(spec, p);
      let startKey: SdkItem | undefined;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const response = await client.send(
          new QueryCommand({ ...common, ...parts, IndexName: access.index, ExclusiveStartKey: startKey }),
          send,
        );
        const more = accept(response.Items, response.ConsumedCapacity?.CapacityUnits, response.ScannedCount);
        startKey = response.LastEvaluatedKey;
        if (!more && (startKey || p + 1 < access.partition.values.length)) truncated = true;
        if (!startKey || !more) break;
      }
    }
    return { ...counters, table, truncated };
  }

  const parts = expressionParts(spec);
  const { segments } = access as Extract<typeof access, { operation: 'Scan' }>;
  // Shared by the segments' loops (an object, so each await re-reads it).
  const scan = { stop: false, finished: 0 };
  const isStopped = (): boolean => scan.stop;
  const scanSegment = async (segment: number): Promise<void> => {
    let startKey: SdkItem | undefined;
    for (let pages = 0; pages < MAX_PAGES && !scan.stop; pages++) {
      const response = await client.send(
        new ScanCommand({
          ...common,
          ...parts,
          ExclusiveStartKey: startKey,
          ...(segments > 1 ? { Segment: segment, TotalSegments: segments } : {}),
        }),
        send,
      );
      if (isStopped()) return;
      startKey = response.LastEvaluatedKey;
      if (!startKey) scan.finished += 1;
      if (!accept(response.Items, response.ConsumedCapacity?.CapacityUnits, response.ScannedCount)) {
        scan.stop = true;
        // Out of room while this or another segment still had items: the data is partial.
        if (startKey || scan.finished < segments) truncated = true;
      }
      if (!startKey) return;
    }
  };
  await Promise.all(Array.from({ length: segments }, (_, segment) => scanSegment(segment)));
  return { ...counters, table, truncated };
}
