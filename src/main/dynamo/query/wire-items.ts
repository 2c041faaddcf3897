import type { DeserializeHandlerOutput, DeserializeMiddleware, HttpResponse } from '@smithy/types';
import { Readable } from 'node:stream';
import type { ResultSetStore, WireAppend } from '../../resultsets/types';
import { splitWirePage, type WireItems } from './wire-page';

/** What the middleware saw of one response. */
export interface WireStash {
  page?: WireAppend;
}

/**
 * The body's bytes. `transfer`: in a buffer of its own (not a slice of Node's pool), so it can move
 * to the worker without a copy; else the one chunk as it came, or the chunks joined (a full
 * scan's copy of every page cost ~1.4 µs of client CPU per item, docs/PERFORMANCE.md).
 */
async function bodyBytes(body: AsyncIterable<Uint8Array>, transfer: boolean): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  if (!transfer) return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size);
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * A per-command middleware for Query and Scan, placed right under the SDK's deserializer: it
 * takes a successful response's body, gives it to `take`, and hands the deserializer only what
 * `take` returns (the small rest: Count, LastEvaluatedKey, ConsumedCapacity). The SDK still signs,
 * retries and reports errors; it just never builds a million AttributeValue objects that would
 * be thrown away. Errors and anything unexpected (a compressed body) pass through untouched, so
 * the output's own Items are the fallback.
 */
export function wireBodyMiddleware<I extends object, O extends object>(
  take: (bytes: Uint8Array) => Promise<object> | object,
  options: { transfer: boolean },
): DeserializeMiddleware<I, O> {
  return (next) => async (args) => {
    const result: DeserializeHandlerOutput<O> = await next(args);
    const response = result.response as HttpResponse;
    const encoding = response.headers['content-encoding'] ?? response.headers['Content-Encoding'];
    if (response.statusCode !== 200 || (encoding !== undefined && encoding !== 'identity')) return result;
    const rest = await take(await bodyBytes(response.body as AsyncIterable<Uint8Array>, options.transfer));
    response.body = Readable.from([Buffer.from(JSON.stringify(rest), 'utf8')]);
    return result;
  };
}

/** The items grid's use: the result-set worker encodes the Items straight from the bytes. */
export function wireItemsMiddleware<I extends object, O extends object>(
  store: ResultSetStore,
  resultSetId: string,
  stash: WireStash,
): DeserializeMiddleware<I, O> {
  return wireBodyMiddleware(
    async (bytes) => {
      stash.page = await store.appendWire(resultSetId, bytes);
      return stash.page.rest;
    },
    { transfer: true },
  );
}

/**
 * A scan's use (segmentedScan's `items: 'wire'`): the page's Items as DynamoDB sent them, the
 * tagged form with binary as base64, parsed a chunk at a time as the scan reads them (see
 * wire-page.ts). JSON.parse keeps every name, `__proto__` included, as an own property, as the
 * SDK's output does once proto-names.ts restored it.
 */
export function wirePageMiddleware<I extends object, O extends object>(stash: {
  items?: WireItems;
}): DeserializeMiddleware<I, O> {
  return wireBodyMiddleware(
    (bytes) => {
      const { rest, items } = splitWirePage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      stash.items = items;
      return rest;
    },
    { transfer: false },
  );
}

export const wireItemsStep = { step: 'deserialize', name: 'dynotableWireItems', priority: 'low' } as const;
