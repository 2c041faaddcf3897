import { compareNum, Decimal, decimalToString } from './decimal';
import { Bytes, DMap, DSet, getEntry, type Value } from './value';

/**
 * Comparison follows DynamoDB: values of different types are never equal and never ordered
 * (so `price > 10` skips items whose price is a string), strings order by code point (UTF-8
 * byte order, as DynamoDB sorts keys), numbers exactly.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 sorts surrogates (code points above U+FFFF) below U+E000..U+FFFF; code points don't.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareBytes(a: Bytes, b: Bytes): number {
  return Buffer.compare(Buffer.from(a.base64, 'base64'), Buffer.from(b.base64, 'base64'));
}

/** SQL `=`: null when either side is NULL/missing, false across types. */
export function sqlEquals(a: Value, b: Value): boolean | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  return deepEquals(a, b);
}

export function deepEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || typeof b === 'string' || typeof a === 'boolean' || typeof b === 'boolean')
    return false;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  const aNum = typeof a === 'number' || a instanceof Decimal;
  const bNum = typeof b === 'number' || b instanceof Decimal;
  if (aNum || bNum) return aNum && bNum && compareNum(a, b) === 0;
  if (a instanceof Bytes) return b instanceof Bytes && a.base64 === b.base64;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEquals(x, b[i]));
  if (a instanceof DSet) {
    if (!(b instanceof DSet) || a.kind !== b.kind || a.items.length !== b.items.length) return false;
    const keys = new Set(a.items.map((x) => hashKey(x)));
    return b.items.every((x) => keys.has(hashKey(x)));
  }
  if (a instanceof DMap && b instanceof DMap) {
    const names = Object.keys(a.entries);
    if (names.length !== Object.keys(b.entries).length) return false;
    return names.every(
      (name) => Object.hasOwn(b.entries, name) && deepEquals(getEntry(a, name), getEntry(b, name)),
    );
  }
  return false;
}

/** SQL `<`/`>`: a sign, or null when either side is NULL or the types cannot be ordered. */
export function sqlCompare(a: Value, b: Value): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const aNum = typeof a === 'number' || a instanceof Decimal;
  const bNum = typeof b === 'number' || b instanceof Decimal;
  if (aNum && bNum) return compareNum(a, b);
  if (a instanceof Bytes && b instanceof Bytes) return compareBytes(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return null;
}

function rank(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'number' || v instanceof Decimal) return 2;
  if (typeof v === 'string') return 3;
  if (v instanceof Bytes) return 4;
  if (Array.isArray(v)) return 5;
  if (v instanceof DSet) return 6;
  return 7;
}

/**
 * ORDER BY's total order: NULL first, then booleans, numbers, strings, binary, lists, sets,
 * maps; within a type by value. Mixed-type columns therefore sort into stable blocks.
 */
export function sortCompare(a: Value, b: Value): number {
  const direct = sqlCompare(a, b);
  if (direct !== null) return direct;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  const ka = hashKey(a);
  const kb = hashKey(b);
  return String(ka) < String(kb) ? -1 : String(ka) > String(kb) ? 1 : 0;
}

export const NULL_KEY = Symbol('null');
export type HashKey = string | number | boolean | symbol;

/**
 * A Map key that is equal exactly when two values are equal. Strings and doubles are their own
 * key (no allocation on the hot path); other kinds get a prefix starting with \u0000, and
 * strings that happen to start with \u0000 are escaped so they cannot collide with those.
 */
export function hashKey(v: Value): HashKey {
  if (typeof v === 'string') return v.length > 0 && v.charCodeAt(0) === 0 ? `\u0000s${v}` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === null || v === undefined) return NULL_KEY;
  return `\u0000${canonical(v)}`;
}

function canonical(v: Value): string {
  if (v === null || v === undefined) return 'z';
  if (typeof v === 'string') return `s${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return `n${String(v)}`;
  if (v instanceof Decimal) return `n${decimalToString(v)}`;
  if (v instanceof Bytes) return `b${v.base64}`;
  if (Array.isArray(v)) return `l[${v.map(canonical).join(',')}]`;
  if (v instanceof DSet) return `${v.kind}[${v.items.map(canonical).sort().join(',')}]`;
  const names = Object.keys(v.entries).sort();
  return `m{${names.map((name) => `${JSON.stringify(name)}:${canonical(getEntry(v, name))}`).join(',')}}`;
}

/** One key for several values (GROUP BY a, b; multi-column joins; DISTINCT). */
export function compositeKey(values: readonly Value[]): string {
  let key = '';
  for (const v of values) key += `${canonical(v)}\u0001`;
  return key;
}
