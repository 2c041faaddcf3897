import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { Decimal, isNum, type Num, numToString, parseDynamoNumber } from './decimal';
import { defineOwn } from '../../../shared/dynamo/proto-keys';

/** Binary attribute, kept as base64 (its wire form) — SQL only compares and shows it. */
export class Bytes {
  constructor(readonly base64: string) {}
}

/** DynamoDB sets (SS / NS / BS). SQL sees them as arrays; results keep the set type. */
export class DSet {
  constructor(
    readonly kind: 'SS' | 'NS' | 'BS',
    readonly items: readonly (string | Num | Bytes)[],
  ) {}
}

/** A map attribute. Entries is an ordinary object, read only through Object.hasOwn. */
export class DMap {
  constructor(readonly entries: Record<string, Value>) {}
}

/**
 * A value inside the engine. `undefined` is a missing attribute and `null` is DynamoDB's NULL or
 * a computed NULL; SQL treats both as NULL, results show only the second as NULL.
 */
export type Value = null | undefined | boolean | string | Num | Bytes | DSet | DMap | Value[];

export function isNull(value: Value): value is null | undefined {
  return value === null || value === undefined;
}

export function getEntry(map: DMap, name: string): Value {
  return Object.hasOwn(map.entries, name) ? map.entries[name] : undefined;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** SDK form (what DynamoDB returned) → engine value, without a tagged copy in between. */
export function fromSdkValue(v: SdkValue): Value {
  if (v.S !== undefined) return v.S;
  if (v.N !== undefined) return parseDynamoNumber(v.N);
  if (v.BOOL !== undefined) return v.BOOL;
  if (v.M !== undefined) {
    const entries: Record<string, Value> = {};
    for (const name in v.M) defineOwn(entries, name, fromSdkValue(v.M[name]!));
    return new DMap(entries);
  }
  if (v.L !== undefined) return v.L.map(fromSdkValue);
  if (v.NULL !== undefined) return null;
  if (v.SS !== undefined) return new DSet('SS', v.SS);
  if (v.NS !== undefined) return new DSet('NS', v.NS.map(parseDynamoNumber));
  if (v.B !== undefined) return new Bytes(base64(v.B));
  if (v.BS !== undefined)
    return new DSet(
      'BS',
      v.BS.map((b) => new Bytes(base64(b))),
    );
  return null;
}

/** Tagged wire form → engine value (tests, cached files, anything that crossed a boundary). */
export function fromTagged(v: AttributeValue): Value {
  if ('S' in v) return v.S;
  if ('N' in v) return parseDynamoNumber(v.N);
  if ('BOOL' in v) return v.BOOL;
  if ('M' in v) {
    const entries: Record<string, Value> = {};
    for (const name of Object.keys(v.M)) defineOwn(entries, name, fromTagged(v.M[name]!));
    return new DMap(entries);
  }
  if ('L' in v) return v.L.map(fromTagged);
  if ('NULL' in v) return null;
  if ('SS' in v) return new DSet('SS', v.SS);
  if ('NS' in v) return new DSet('NS', v.NS.map(parseDynamoNumber));
  if ('B' in v) return new Bytes(v.B);
  return new DSet(
    'BS',
    v.BS.map((b) => new Bytes(b)),
  );
}

/** Engine value → tagged form for results. A missing value has no tagged form (undefined). */
export function toTagged(v: Value): AttributeValue | undefined {
  if (v === undefined) return undefined;
  if (v === null) return { NULL: true };
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'boolean') return { BOOL: v };
  if (isNum(v)) return { N: numToString(v) };
  if (v instanceof Bytes) return { B: v.base64 };
  if (Array.isArray(v)) return { L: v.map((item) => toTagged(item) ?? { NULL: true }) };
  if (v instanceof DSet) {
    if (v.kind === 'SS') return { SS: v.items as string[] };
    if (v.kind === 'NS') return { NS: v.items.map((n) => numToString(n as Num)) };
    return { BS: v.items.map((b) => (b as Bytes).base64) };
  }
  const M: Record<string, AttributeValue> = {};
  for (const name of Object.keys(v.entries)) {
    const tagged = toTagged(v.entries[name]);
    if (tagged) defineOwn(M, name, tagged);
  }
  return { M };
}

/** DynamoDB's type letter, or MISSING / NULL, for TYPE_OF() and error messages. */
export function typeName(v: Value): string {
  if (v === undefined) return 'MISSING';
  if (v === null) return 'NULL';
  if (typeof v === 'string') return 'S';
  if (typeof v === 'boolean') return 'BOOL';
  if (typeof v === 'number' || v instanceof Decimal) return 'N';
  if (v instanceof Bytes) return 'B';
  if (Array.isArray(v)) return 'L';
  if (v instanceof DSet) return v.kind;
  return 'M';
}

/** Items of a list or set, for IN, CONTAINS and element access. */
export function elementsOf(v: Value): readonly Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof DSet) return v.items;
  return undefined;
}
