import type { DynamoDBClient, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import type {
  DeserializeMiddleware,
  HandlerExecutionContext,
  HttpResponse,
  InitializeMiddleware,
} from '@smithy/types';
import { Readable } from 'node:stream';
import { hasProtoKey, hideProtoKeys, restoreProtoKeys } from '../../shared/dynamo/proto-keys';

/**
 * `__proto__` is a legal DynamoDB attribute name (and a legal table name, as a BatchGetItem
 * Responses key), but the SDK's deserializer builds its output with plain assignment, so that
 * attribute comes back as `undefined` or vanishes, and whatever reads the item next crashes
 * (issue 11). Rather than give every command its own parser, the raw response is checked: when
 * a JSON object in it has a `__proto__` key, that key is renamed to a name no item can hold
 * before the SDK parses it, and renamed back, as an own property, in what the SDK returns (the
 * output or the error; see shared/dynamo/proto-keys.ts). Responses without one (nearly all) are
 * only scanned for the bytes.
 */
const FLAG = Symbol('dynotableProtoNames');

type FlaggedContext = HandlerExecutionContext & { [FLAG]?: boolean };

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return Buffer.concat(chunks);
}

/** Restores the own properties of an SDK output or error object in place. */
function restoreOwn(target: object): void {
  const record = target as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = restoreProtoKeys(record[key]);
}

const hideMiddleware: DeserializeMiddleware<ServiceInputTypes, ServiceOutputTypes> =
  (next, context) => async (args) => {
    const result = await next(args);
    const response = result.response as HttpResponse;
    const body = response.body as AsyncIterable<Uint8Array> | undefined;
    if (!body || typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function')
      return result;
    const bytes = await collect(body);
    let out = bytes;
    // `\u` as well: JSON may spell any character of the name as an escape.
    if (bytes.includes('__proto__') || bytes.includes('\\u')) {
      try {
        const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
        if (hasProtoKey(parsed)) {
          out = Buffer.from(JSON.stringify(hideProtoKeys(parsed)), 'utf8');
          (context as FlaggedContext)[FLAG] = true;
        }
      } catch {
        // Not JSON (a proxy's error page): the SDK reports it as it would have.
      }
    }
    response.body = Readable.from([out]);
    return result;
  };

const restoreMiddleware: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> =
  (next, context) => async (args) => {
    try {
      const result = await next(args);
      if ((context as FlaggedContext)[FLAG]) restoreOwn(result.output);
      return result;
    } catch (error) {
      if ((context as FlaggedContext)[FLAG] && error !== null && typeof error === 'object') restoreOwn(error);
      throw error;
    }
  };

/**
 * Makes a client keep `__proto__` attribute (and table) names as data, in outputs and errors.
 * Also the DynamoDB Streams client: its records carry items in the same JSON.
 */
export function keepProtoNames<C extends { middlewareStack: unknown }>(client: C): C {
  const stack = client.middlewareStack as DynamoDBClient['middlewareStack'];
  stack.add(restoreMiddleware, {
    step: 'initialize',
    priority: 'low',
    name: 'dynotableRestoreProtoNames',
    override: true,
  });
  // Right under the SDK's deserializer, above wire-items.ts (which reads the Items of Query and
  // Scan from the raw bytes itself and hands on only the rest).
  stack.addRelativeTo(hideMiddleware, {
    relation: 'after',
    toMiddleware: 'deserializerMiddleware',
    name: 'dynotableHideProtoNames',
    override: true,
  });
  return client;
}
