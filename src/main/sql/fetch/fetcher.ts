import type { Buffer } from 'node:buffer';
import {
  BatchGetItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  type AttributeValue as SdkValue,
} from '@aws-sdk/client-dynamodb';
import { keyAttributeNames } from '../../../shared/dynamo/key-model';
import { AppFailure } from '../../../shared/errors';
import { sleep } from '../../core/retry';
import {
  initialCursors,
  type PagedRequest,
  type ScanPage,
  segmentedScan,
} from '../../dynamo/read/segmented-read';
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

/**
 * Runs one planned read, appending each page to a columnar table as it arrives (so loading
 * happens while the next page is on the wire). Stops at spec.maxItems; passes the abort signal
 * to every SDK call so cancel stops the request in flight. When the read is over, the rows the
 * table keeps aside for a full compressed block are compressed.
 */
export async function runFetch(
  client: DynamoDBClient,
  spec: FetchSpec,
  options: FetchOptions = {},
): Promise<FetchOutcome> {
  const outcome = await fetchInto(client, spec, options);
  outcome.table.finish();
  return outcome;
}

async function fetchInto(
  client: DynamoDBClient,
  spec: FetchSpec,
  options: FetchOptions,
): Promise<FetchOutcome> {
  const table = new ColumnarTable(spec.table.name, keyAttributes(spec));
  const counters: FetchCounters = { items: 0, pages: 0, consumedCapacity: 0, scanned: 0 };
  let truncated = false;
  const send = { abortSignal: options.signal };
  /** Items a page may still keep: spec.maxItems and the statement's budget. */
  const room = (): number => Math.min(spec.maxItems - counters.items, options.budget?.room() ?? Infinity);
  /** A page held `length` items and `kept` of them went into the table. */
  const keep = (length: number, kept: number): void => {
    if (length > kept) truncated = true;
    counters.items += kept;
    options.budget?.spend(kept, 0);
  };
  /** A page is over: its counters, its capacity; false when the table is full. */
  const account = (capacity: number | undefined, scanned: number): boolean => {
    counters.pages += 1;
    counters.consumedCapacity += capacity ?? 0;
    counters.scanned += scanned;
    options.budget?.spend(0, capacity ?? 0);
    options.onPage?.({ ...counters });
    return counters.items < spec.maxItems && !options.budget?.isSpent();
  };
  /** Keeps at most what is left of `length` items (append gets the count); false when full. */
  const accept = (
    length: number,
    append: (count: number) => void,
    capacity: number | undefined,
    scanned?: number,
  ): boolean => {
    const kept = Math.max(0, Math.min(length, room()));
    append(kept);
    keep(length, kept);
    return account(capacity, scanned ?? length);
  };
  const acceptSdk = (
    items: SdkItem[] | undefined,
    capacity: number | undefined,
    scanned?: number,
  ): boolean => {
    const page = items ?? [];
    return accept(
      page.length,
      (count) => table.appendSdkItems(count < page.length ? page.slice(0, count) : page),
      capacity,
      scanned,
    );
  };
  // A page's Items are read from its response bytes into the table as the response arrives (the
  // one walk of the bytes: wire-page.ts WireItemsReader), within the room left at that moment;
  // onPage then only counts the page. A page the SDK parsed (a compressed body) comes as items.
  const readWire = (body: Buffer, from: number): { end: number; count: number } => {
    const read = table.readWireItems(body, from, Math.max(0, room()));
    keep(read.count, read.kept);
    return read;
  };
  const acceptWire = (page: ScanPage<'wire'>): boolean =>
    page.items.isTaken
      ? account(page.consumed, page.scannedCount)
      : accept(
          page.items.length,
          (count) => table.appendTaggedItems(page.items, count),
          page.consumed,
          page.scannedCount,
        );
  const read = (request: PagedRequest, segments: number, onPage: (page: ScanPage<'wire'>) => boolean) => {
    const cursors = initialCursors(segments);
    const done = segmentedScan({
      client,
      table: spec.table.name,
      cursors,
      totalSegments: segments,
      signal: options.signal ?? new AbortController().signal,
      request,
      items: 'wire',
      readItems: readWire,
      pagesPerSegment: MAX_PAGES,
      onPage,
    });
    return { cursors, done };
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
    acceptSdk(response.Item ? [response.Item] : [], response.ConsumedCapacity?.CapacityUnits, 1);
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
        if (attempt > 0)
          await sleep(Math.min(2000, 50 * 2 ** attempt), options.signal, 'The query was cancelled.');
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
        acceptSdk(response.Responses?.[spec.table.name], capacity, keys.length);
        keys = response.UnprocessedKeys?.[spec.table.name]?.Keys ?? [];
      }
    }
    return { ...counters, table, truncated };
  }

  // Query and Scan pages come through the one read engine, their Items read from the response
  // bytes straight into the table (readWire): the SDK's deserializer never sees them.
  if (access.operation === 'Query') {
    const partitions = access.partition.values.length;
    // Objects: set inside callbacks, which flow analysis cannot follow.
    const state = { more: true };
    for (let p = 0; p < partitions; p++) {
      const { cursors, done } = read(
        { operation: 'Query', input: { ...expressionParts(spec, p), IndexName: access.index } },
        1,
        (page) => (state.more = acceptWire(page)),
      );
      await done;
      if (state.more) continue;
      if (!cursors[0]!.done || p + 1 < partitions) truncated = true;
      break;
    }
    return { ...counters, table, truncated };
  }

  const { segments } = access as Extract<typeof access, { operation: 'Scan' }>;
  const { cursors, done } = read({ operation: 'Scan', input: expressionParts(spec) }, segments, (page) => {
    const more = acceptWire(page);
    // Out of room while this or another segment still had items: the data is partial.
    if (!more && (page.nextKey || cursors.some((c) => !c.done && c.segment !== page.segment)))
      truncated = true;
    return more;
  });
  await done;
  return { ...counters, table, truncated };
}
