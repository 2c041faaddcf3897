import {
  type AttributeValue as SdkValue,
  type DynamoDBClient,
  QueryCommand,
  ScanCommand,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { MiddlewareStack } from '@smithy/types';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { ReadRequest } from '../../../shared/dynamo/read-request';
import { fromSdkItem, toSdkItem } from '../marshal';
import { abortFanOut, backoffMs, isRetryable, sleep } from '../../core/retry';
import type { RateLimiter } from '../rate-limiter';
import { watchThrottling } from '../throttle-watch';
import type { ResultSetStore, ResultSetWindow } from '../../resultsets/types';
import { wireItemsMiddleware, wireItemsStep, wirePageMiddleware, type WireStash } from '../query/wire-items';
import { WireItems, type WireItemsReader } from '../query/wire-page';

export interface SegmentCursor {
  segment: number;
  /** Where this segment continues (tagged form, so it survives JSON); absent at the start. */
  startKey?: Item;
  done: boolean;
}

/**
 * How a page's items reach onPage: as the SDK built them (binary as bytes), or `wire`: parsed
 * from the response's own JSON, the tagged form (binary as base64), a chunk at a time as onPage
 * reads them, while the SDK reads only the rest. The SDK's schema-driven walk of every value was
 * most of a plain Scan's client CPU, and a whole page of objects alive at once most of the rest.
 * `result-set`: the response's bytes go to the result-set worker (`resultSet`), which encodes the
 * items from them; no item is ever an object in this thread, and onPage learns only how many.
 */
export type PageItems = 'sdk' | 'wire' | 'result-set';
type ItemsOf<F extends PageItems> = F extends 'wire'
  ? WireItems
  : F extends 'result-set'
    ? StoredItems
    : Record<string, SdkValue>[];

/** A page's items as a result set took them in (`items: 'result-set'`). */
export interface StoredItems {
  /** Items the page added. */
  length: number;
  /** Rows the result set holds after it. */
  total: number;
  /** The result set's first rows after it, when `resultSet.firstRows` asked for them. */
  first?: Promise<ResultSetWindow | undefined>;
}

export interface ScanPage<F extends PageItems = 'sdk'> {
  segment: number;
  /** Callers that only read types and strings can skip marshalling either form. */
  items: ItemsOf<F>;
  scannedCount: number;
  consumed: number;
  /** Where the segment goes on after this page; absent when it is done. */
  nextKey?: Item;
}

/**
 * The request each page repeats, in SDK form: a Scan's index and filter, or a Query (one
 * segment: DynamoDB cannot split a Query). Absent: a Scan of the whole table.
 */
export interface PagedRequest {
  operation: 'Scan' | 'Query';
  input: {
    IndexName?: string;
    KeyConditionExpression?: string;
    FilterExpression?: string;
    ProjectionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, SdkValue>;
    ConsistentRead?: boolean;
    ScanIndexForward?: boolean;
  };
}

/**
 * The builder's request (tagged values) as the engine repeats it: SDK values, no table name.
 * `wholeItems` drops the projection (a copy takes whole items).
 */
export function toPagedRequest(request: ReadRequest, options: { wholeItems?: boolean } = {}): PagedRequest {
  const { TableName: _table, ExpressionAttributeValues, ProjectionExpression, ...rest } = request.input;
  return {
    operation: request.operation,
    input: {
      ...rest,
      ...(ProjectionExpression && !options.wholeItems ? { ProjectionExpression } : {}),
      ...(ExpressionAttributeValues
        ? { ExpressionAttributeValues: toSdkItem(ExpressionAttributeValues) }
        : {}),
    },
  };
}

export interface SegmentedScanOptions<F extends PageItems = 'sdk'> {
  client: DynamoDBClient;
  table: string;
  /** Scan this index of the table instead of the table. */
  index?: string;
  cursors: SegmentCursor[];
  totalSegments: number;
  signal: AbortSignal;
  limiter?: RateLimiter;
  /** What the limiter counts: read capacity units (default) or items. */
  limiterUnit?: 'capacity' | 'items';
  /**
   * Items per request; absent = DynamoDB's 1 MB pages. A function is asked before each request
   * (a read bounded by capacity sizes the next page by what the last one cost).
   */
  pageLimit?: number | (() => number | undefined);
  request?: PagedRequest;
  /**
   * Called after each page, before its segment's cursor moves past it. A promise holds the
   * segment until it settles (a copy writes the page first); a synchronous callback costs no tick.
   * `false` (or a promise of it) says the destination is full (an item or capacity budget):
   * every segment stops before its next request, resumably, and the read ends 'stopped'.
   * Anything else goes on.
   */
  onPage(page: ScanPage<F>): unknown;
  /** The form of the items onPage gets (default `sdk`). */
  items?: F;
  /**
   * With `items: 'wire'`: a destination that reads each page's Items from the response bytes
   * itself, as the response arrives (wire-page.ts). onPage then gets them already read
   * (`WireItems.isTaken`, counted only); a page the SDK parsed (a compressed body) still comes
   * as items. The reader runs before onPage: pages of other segments may be read in between.
   */
  readItems?: WireItemsReader;
  /**
   * Where `items: 'result-set'` puts each page; `firstRows`, asked before each request, how many
   * rows from the set's start to read once that page is in (0: none).
   */
  resultSet?: { store: ResultSetStore; id: string; firstRows?: () => number };
  /** Stop (resumably) once this many items were read in this run. */
  maxItems?: number;
  /** Read at most this many pages of each segment (a sample reads the first page of each). */
  pagesPerSegment?: number;
  maxThrottleRetries?: number;
  /** Told of each throttled Scan attempt, also of those the SDK retried by itself. */
  onThrottle?(): void;
  /** Told before each wait after the SDK gave up on a page (retry is 1, 2, …), so a view can say so. */
  onRetry?(retry: number, waitMs: number): void;
  /**
   * Ask for a segment's next page before handing the current one to onPage, so DynamoDB reads
   * while the page is analysed (one request in flight per segment, as before, plus this one).
   */
  readAhead?: boolean;
}

/**
 * The one paged read: a Query, or a parallel Scan over `totalSegments` segments, each a loop of
 * pages handed to a destination (onPage: a copy's writer, the schema accumulator, the SQL
 * engine's table, the agent's budgeted sample). Bounded by maxItems, pagesPerSegment, the rate
 * limit, the destination saying it is full, and cancel; every page moves a cursor that a
 * checkpoint can persist, so an interrupted read resumes where it stopped. Throttled pages are
 * retried with backoff (core/retry.ts). Per page it costs one callback: no marshalling.
 */
export async function segmentedScan<F extends PageItems = 'sdk'>(
  options: SegmentedScanOptions<F>,
): Promise<'done' | 'stopped'> {
  const inner = new AbortController();
  const onAbort = () => inner.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  // Each page's request, rate-limit turn and backoff on a signal of its own: with many segments
  // reading ahead, one shared signal would collect a listener per request in flight.
  const calls = abortFanOut(inner.signal);
  let read = 0;
  const budget = { stopped: false, full: false }; // an object: set inside run(), which narrowing cannot follow
  const unit = options.limiterUnit ?? 'capacity';

  const throttled = (): void => {
    options.limiter?.throttled();
    options.onThrottle?.();
  };

  const resultSet = options.resultSet;
  if (options.items === 'result-set' && !resultSet)
    throw new Error("segmentedScan: items 'result-set' needs the result set to put them in.");

  /** A body the middleware let pass (compressed) leaves the SDK's own Items, taken the slow way. */
  async function itemsOf(
    out: ScanCommandOutput,
    wire: { items?: WireItems },
    stored: WireStash,
  ): Promise<ItemsOf<F>> {
    if (options.items === 'wire')
      return (wire.items ?? WireItems.of((out.Items ?? []) as Item[])) as ItemsOf<F>;
    if (options.items !== 'result-set' || !resultSet) return (out.Items ?? []) as ItemsOf<F>;
    const page = readStash(stored);
    if (page)
      return {
        length: page.items,
        total: page.total,
        ...(stored.first ? { first: stored.first } : {}),
      } as ItemsOf<F>;
    const rows = (out.Items ?? []).map(fromSdkItem);
    return { length: rows.length, total: await resultSet.store.append(resultSet.id, rows) } as ItemsOf<F>;
  }

  function page(
    segment: number,
    startKey: Record<string, SdkValue> | undefined,
  ): Promise<{ out: ScanCommandOutput; items: ItemsOf<F> }> {
    return calls.run((signal) => pageOn(signal, segment, startKey));
  }

  async function pageOn(
    signal: AbortSignal,
    segment: number,
    startKey: Record<string, SdkValue> | undefined,
  ): Promise<{ out: ScanCommandOutput; items: ItemsOf<F> }> {
    for (let attempt = 0; ; attempt++) {
      await options.limiter?.take(signal);
      // One stash per request: with readAhead two requests of a segment can be in flight.
      const wire: { items?: WireItems } = {};
      const stored: WireStash = { firstRows: resultSet?.firstRows?.() ?? 0 };
      const fromWire = <I extends object, O extends object, C extends object>(
        command: C & { middlewareStack: MiddlewareStack<I, O> },
      ): C => {
        if (options.items === 'wire')
          command.middlewareStack.add(wirePageMiddleware<I, O>(wire, options.readItems), wireItemsStep);
        else if (options.items === 'result-set' && resultSet)
          command.middlewareStack.add(
            wireItemsMiddleware<I, O>(resultSet.store, resultSet.id, stored),
            wireItemsStep,
          );
        return command;
      };
      try {
        const common = {
          TableName: options.table,
          ...(options.index ? { IndexName: options.index } : {}),
          ...options.request?.input,
          ExclusiveStartKey: startKey,
          ReturnConsumedCapacity: 'TOTAL' as const,
          Limit: typeof options.pageLimit === 'function' ? options.pageLimit() : options.pageLimit,
        };
        // One segment is a plain Scan: the request the user's builder shows, and the same pages.
        const segmentOf =
          options.totalSegments > 1 ? { Segment: segment, TotalSegments: options.totalSegments } : {};
        const out: ScanCommandOutput =
          options.request?.operation === 'Query'
            ? await options.client.send(watchThrottling(fromWire(new QueryCommand(common)), throttled), {
                abortSignal: signal,
              })
            : await options.client.send(
                watchThrottling(fromWire(new ScanCommand({ ...common, ...segmentOf })), throttled),
                { abortSignal: signal },
              );
        options.limiter?.succeeded();
        return { out, items: await itemsOf(out, wire, stored) };
      } catch (error) {
        // The SDK gave up on this page; the watch already slowed the limiter for each refusal.
        if (!isRetryable(error) || attempt >= (options.maxThrottleRetries ?? 10) || signal.aborted)
          throw error;
        const waitMs = backoffMs(attempt + 3);
        options.onRetry?.(attempt + 1, waitMs);
        await sleep(waitMs, signal);
      }
    }
  }

  const mayRead = (pages: number) =>
    !budget.full &&
    !(options.maxItems !== undefined && read >= options.maxItems) &&
    !(options.pagesPerSegment !== undefined && pages >= options.pagesPerSegment);

  async function run(cursor: SegmentCursor): Promise<void> {
    let ahead: Promise<{ out: ScanCommandOutput; items: ItemsOf<F> }> | undefined;
    for (let pages = 0; !cursor.done && !inner.signal.aborted; pages++) {
      if (budget.full || (!ahead && !mayRead(pages))) {
        budget.stopped = true;
        return;
      }
      const { out, items } = await (ahead ??
        page(cursor.segment, cursor.startKey ? toSdkItem(cursor.startKey) : undefined));
      ahead = undefined;
      const consumed = out.ConsumedCapacity?.CapacityUnits ?? 0;
      read += items.length;
      const nextKey = out.LastEvaluatedKey ? fromSdkItem(out.LastEvaluatedKey) : undefined;
      if (options.readAhead && out.LastEvaluatedKey && mayRead(pages + 1)) {
        ahead = page(cursor.segment, out.LastEvaluatedKey);
        // Awaited on the next turn; a failure meanwhile (cancel, another segment's error) is not unhandled.
        ahead.catch(() => undefined);
      }
      const answer = options.onPage({
        segment: cursor.segment,
        items,
        scannedCount: out.ScannedCount ?? items.length,
        consumed,
        nextKey,
      });
      const verdict: unknown = answer instanceof Promise ? await (answer as Promise<unknown>) : answer;
      if (verdict === false) budget.full = true;
      options.limiter?.spend(unit === 'items' ? items.length : consumed);
      if (nextKey) cursor.startKey = nextKey;
      else {
        cursor.startKey = undefined;
        cursor.done = true;
      }
    }
  }

  // The read's failure: the first error that came before the read was stopped (by a cancel or by
  // another segment's failure); what any segment meets after that is the stop's doing. Not only
  // an AbortError: a response whose body was arriving when the stop came ends as the socket's
  // ECONNRESET ("aborted"), which would show a cancel as a network failure. A TimeoutError of the
  // SDK's own comes before any stop, so it is a failure (it is not the user's cancel).
  let failure: { error: unknown } | undefined;
  try {
    await Promise.all(
      options.cursors.map((cursor) =>
        run(cursor).catch((error: unknown) => {
          if (!failure && !inner.signal.aborted) failure = { error };
          inner.abort(); // one failing segment stops the others; the checkpoint keeps their place
        }),
      ),
    );
    if (failure) throw failure.error;
    if (isAborted(options.signal)) throw abortError();
    return budget.stopped || options.cursors.some((c) => !c.done) ? 'stopped' : 'done';
  } finally {
    calls.close();
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** Read through a call: the middleware fills the stash inside client.send, which flow analysis cannot see. */
const readStash = (stash: WireStash): WireStash['page'] => stash.page;

/** Read through a call: the signal flips during an await, which type narrowing cannot see. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

function abortError(): Error {
  const error = new Error('The scan was cancelled.');
  error.name = 'AbortError';
  return error;
}

export function initialCursors(totalSegments: number): SegmentCursor[] {
  return Array.from({ length: totalSegments }, (_, segment) => ({ segment, done: false }));
}
