import type { DeserializeHandlerOutput, DeserializeMiddleware, HttpResponse } from '@smithy/types';
import { Readable } from 'node:stream';
import type { ResultSetStore, WireAppend } from '../../core/context';

/** What the middleware saw of one response. */
export interface WireStash {
  page?: WireAppend;
}

async function ownBytes(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  // A buffer of its own (not a slice of Node's pool), so it can move to the worker without a copy.
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
 * takes a successful response's body, has the result-set worker encode its Items straight from
 * the bytes, and hands the deserializer only the small rest (Count, LastEvaluatedKey,
 * ConsumedCapacity). The SDK still signs, retries and reports errors; it just never builds a
 * million AttributeValue objects the grid would throw away. Errors and anything unexpected
 * (a compressed body) pass through untouched.
 */
export function wireItemsMiddleware<I extends object, O extends object>(
  store: ResultSetStore,
  resultSetId: string,
  stash: WireStash,
): DeserializeMiddleware<I, O> {
  return (next) => async (args) => {
    const result: DeserializeHandlerOutput<O> = await next(args);
    const response = result.response as HttpResponse;
    const encoding = response.headers['content-encoding'] ?? response.headers['Content-Encoding'];
    if (response.statusCode !== 200 || (encoding !== undefined && encoding !== 'identity')) return result;
    const bytes = await ownBytes(response.body as AsyncIterable<Uint8Array>);
    stash.page = await store.appendWire(resultSetId, bytes);
    response.body = Readable.from([Buffer.from(JSON.stringify(stash.page.rest), 'utf8')]);
    return result;
  };
}

export const wireItemsStep = { step: 'deserialize', name: 'dynotableWireItems', priority: 'low' } as const;
