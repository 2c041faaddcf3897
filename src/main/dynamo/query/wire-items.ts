import type { DeserializeHandlerOutput, DeserializeMiddleware, HttpResponse } from '@smithy/types';
import type { ResultSetStore, ResultSetWindow, WireAppend } from '../../resultsets/types';
import { splitWirePage, type WireItems, type WireItemsReader } from './wire-page';

/** What the middleware saw of one response. */
export interface WireStash {
  page?: WireAppend;
  /** Rows to read from the result set's start once this page is in (a fresh read's first page). */
  firstRows?: number;
  /** Those rows; undefined when the read failed (the caller reads them again). */
  first?: Promise<ResultSetWindow | undefined>;
}

/** The body's chunks as they came. */
async function bodyChunks(body: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks;
}

/** The body's bytes: the one chunk as it came, or the chunks joined (no copy of a one-chunk page). */
const joined = (chunks: Uint8Array[]): Uint8Array =>
  chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);

/**
 * A per-command middleware for Query and Scan, placed right under the SDK's deserializer: it
 * takes a successful response's body, gives it to `take`, and hands the deserializer only what
 * `take` returns (the small rest: Count, LastEvaluatedKey, ConsumedCapacity). The SDK still signs,
 * retries and reports errors; it just never builds a million AttributeValue objects that would
 * be thrown away. Errors and anything unexpected (a compressed body) pass through untouched, so
 * the output's own Items are the fallback.
 */
export function wireBodyMiddleware<I extends object, O extends object>(
  take: (chunks: Uint8Array[]) => Promise<object> | object,
): DeserializeMiddleware<I, O> {
  return (next) => async (args) => {
    const result: DeserializeHandlerOutput<O> = await next(args);
    const response = result.response as HttpResponse;
    const encoding = response.headers['content-encoding'] ?? response.headers['Content-Encoding'];
    if (response.statusCode !== 200 || (encoding !== undefined && encoding !== 'identity')) return result;
    const rest = await take(await bodyChunks(response.body as AsyncIterable<Uint8Array>));
    // Bytes, which the SDK's collectBody takes as they are: no stream per page. A Readable.from
    // per page ran Node's stream code on a second kind of stream beside the sockets'; traced, the
    // schema bench's first counted round deoptimised that code inside the schema scan
    // (docs/PERFORMANCE.md, "session 22, schemascan4").
    response.body = Buffer.from(JSON.stringify(rest), 'utf8');
    return result;
  };
}

/**
 * A request's Items go into their destination (the result set, the SQL table) at most once. The
 * middleware belongs to one command, so the SDK's own retries pass through it again; none comes
 * after an answer was read whole, because nothing after that step is retried (a broken body is a
 * WireFormatError, which neither the SDK nor segmentedScan sends again). Should that ever change,
 * the second answer is refused here rather than appended beside the first.
 */
function readOnce(wasRead: boolean): void {
  if (wasRead)
    throw new Error(
      'The request was sent again after its answer had been read into the results; stopped rather than keep its items twice.',
    );
}

/** The items grid's use: the result-set worker encodes the Items straight from the bytes. */
export function wireItemsMiddleware<I extends object, O extends object>(
  store: ResultSetStore,
  resultSetId: string,
  stash: WireStash,
): DeserializeMiddleware<I, O> {
  return wireBodyMiddleware(async (chunks) => {
    readOnce(stash.page !== undefined);
    const appended = store.appendWire(resultSetId, chunks);
    // Posted right behind the append, the window is read in the same turn of the (niced) worker
    // instead of waking it again after the append's answer came back.
    if (stash.firstRows) stash.first = store.window(resultSetId, 0, stash.firstRows).catch(() => undefined);
    stash.page = await appended;
    return stash.page.rest;
  });
}

/**
 * A scan's use (segmentedScan's `items: 'wire'`): the page's Items as DynamoDB sent them, the
 * tagged form with binary as base64, parsed a chunk at a time as the scan reads them (see
 * wire-page.ts). JSON.parse keeps every name, `__proto__` included, as an own property, as the
 * SDK's output does once proto-names.ts restored it. With a `reader`, the Items are read from the
 * bytes by it, here, and the stash only counts them.
 */
export function wirePageMiddleware<I extends object, O extends object>(
  stash: { items?: WireItems },
  reader?: WireItemsReader,
): DeserializeMiddleware<I, O> {
  return wireBodyMiddleware((chunks) => {
    readOnce(stash.items?.isTaken === true);
    const bytes = joined(chunks);
    const { rest, items } = splitWirePage(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      reader,
    );
    stash.items = items;
    return rest;
  });
}

export const wireItemsStep = { step: 'deserialize', name: 'dynotableWireItems', priority: 'low' } as const;
