import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { defineOwn } from '../../shared/dynamo/proto-keys';

/**
 * Binary in plain JSON: the bytes as base64 with their type, so an agent can tell them from a
 * string and use them (a key, a comparison) exactly. `{"$type": "B", "base64": …}` rather than
 * DynamoDB's `{"B": …}`, which a map with one attribute named B would read the same as.
 */
export interface PlainBinary {
  $type: 'B' | 'BS';
  base64: string | string[];
}

/**
 * What the model reads and writes: plain JSON. Numbers the model sees stay exact (a number that
 * a double can't hold is shown as its decimal string); what it proposes is typed by the table's
 * key schema or by the plain JSON type, never guessed from text.
 */
export function toModelValue(value: AttributeValue): unknown {
  if ('S' in value) return value.S;
  if ('N' in value) return isSafeNumber(value.N) ? Number(value.N) : value.N;
  if ('B' in value) return { $type: 'B', base64: value.B } satisfies PlainBinary;
  if ('BOOL' in value) return value.BOOL;
  if ('NULL' in value) return null;
  if ('L' in value) return value.L.map(toModelValue);
  if ('M' in value) return toModelItem(value.M);
  if ('SS' in value) return value.SS;
  if ('NS' in value) return value.NS.map((n) => (isSafeNumber(n) ? Number(n) : n));
  return { $type: 'BS', base64: value.BS } satisfies PlainBinary;
}

export function toModelItem(item: Item): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) defineOwn(out, name, toModelValue(value));
  return out;
}

function isSafeNumber(text: string): boolean {
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
}

const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A key value typed by the key schema (S, N or B). */
export function keyValue(value: unknown, type: 'S' | 'N' | 'B', name: string): AttributeValue {
  if (type === 'S' && typeof value === 'string') return { S: value };
  if (type === 'N' && (typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value)))) {
    return { N: String(value) };
  }
  if (type === 'B' && typeof value === 'string') return { B: value };
  throw new AppFailure(
    ErrorCodes.invalidInput,
    `Key attribute ${name} must be of type ${type}; got ${JSON.stringify(value)}.`,
  );
}

/** A plain JSON value as DynamoDB would store it from a JSON document. */
export function fromPlain(value: unknown): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(fromPlain) };
  if (typeof value === 'object') {
    const m: Item = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) defineOwn(m, k, fromPlain(v));
    return { M: m };
  }
  throw new AppFailure(ErrorCodes.invalidInput, `Cannot store ${typeof value} in DynamoDB.`);
}
