import { deepEquals, hashKey, sortCompare } from '../values/compare';
import {
  Decimal,
  isNum,
  type Num,
  numToString,
  parseNum,
  roundDecimal,
  normalizeDecimal,
  toDecimal,
} from '../values/decimal';
import { Bytes, DMap, DSet, elementsOf, isNull, toTagged, typeName, type Value } from '../values/value';
import { addUnits, datePart, dateUnit, diffUnits, toEpochMs, toIso, truncate } from './dates';

export interface FunctionEnv {
  /** now() of this statement: one instant for every row. */
  nowMs: number;
}

type Impl = (args: Value[], env: FunctionEnv) => Value;

interface FunctionDef {
  min: number;
  max: number;
  impl: Impl;
}

/** Text of any value, for || and CAST(x AS STRING): numbers keep every digit. */
export function toText(v: Value): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isNum(v)) return numToString(v);
  if (v instanceof Bytes) return v.base64;
  return JSON.stringify(toTagged(v));
}

export function toNumber(v: Value): Num | null {
  if (isNum(v)) return v;
  if (typeof v === 'string') return parseNum(v) ?? null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

const str = (v: Value): string | null => (typeof v === 'string' ? v : null);
const int = (v: Value): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** Rounds exactly to `places` digits after the point (half away from zero, as ROUND and CAST AS INTEGER). */
export function roundNumber(x: Num, places: number, mode: 'half' | 'floor' | 'ceil'): Num {
  if (typeof x === 'number' && places === 0) {
    const r =
      mode === 'floor'
        ? Math.floor(x)
        : mode === 'ceil'
          ? Math.ceil(x)
          : Math.sign(x) * Math.round(Math.abs(x));
    if (Math.abs(r) < 1e15) return r + 0;
  }
  return normalizeDecimal(roundDecimal(toDecimal(x), places, mode));
}

function roundWith(mode: 'half' | 'floor' | 'ceil'): Impl {
  return ([x, places]) => {
    if (!isNum(x)) return null;
    const p = places === undefined ? 0 : int(places);
    if (p === null) return null;
    return roundNumber(x, p, mode);
  };
}

/**
 * TRIM strips the space (U+0020) alone, or any of the characters named, as the SQL standard and
 * PostgreSQL do; not JavaScript's trim(), which also takes tabs, newlines, no-break spaces and
 * U+3000 that may be part of the data.
 */
function trimmed(s: Value, chars: Value | undefined, leading: boolean, trailing: boolean): Value {
  const text = str(s);
  const set = chars === undefined ? ' ' : str(chars);
  if (text === null || set === null) return null;
  const strip = new Set(Array.from(set));
  const points = Array.from(text);
  let [from, to] = [0, points.length];
  while (leading && from < to && strip.has(points[from]!)) from++;
  while (trailing && to > from && strip.has(points[to - 1]!)) to--;
  return points.slice(from, to).join('');
}

function dateArg(v: Value): number | null {
  return isNull(v) ? null : toEpochMs(v);
}

const defs: Record<string, FunctionDef> = {
  COALESCE: { min: 1, max: 64, impl: (args) => args.find((a) => !isNull(a)) ?? null },
  IFNULL: { min: 2, max: 2, impl: ([a, b]) => (isNull(a) ? (b ?? null) : a) },
  NULLIF: {
    min: 2,
    max: 2,
    impl: ([a, b]) => (!isNull(a) && !isNull(b) && deepEquals(a, b) ? null : (a ?? null)),
  },
  GREATEST: {
    min: 1,
    max: 64,
    impl: (args) =>
      args
        .filter((a) => !isNull(a))
        .reduce<Value>((m, a) => (m === null || sortCompare(a, m) > 0 ? a : m), null),
  },
  LEAST: {
    min: 1,
    max: 64,
    impl: (args) =>
      args
        .filter((a) => !isNull(a))
        .reduce<Value>((m, a) => (m === null || sortCompare(a, m) < 0 ? a : m), null),
  },

  LOWER: { min: 1, max: 1, impl: ([s]) => str(s)?.toLowerCase() ?? null },
  UPPER: { min: 1, max: 1, impl: ([s]) => str(s)?.toUpperCase() ?? null },
  LENGTH: { min: 1, max: 1, impl: ([s]) => (typeof s === 'string' ? Array.from(s).length : null) },
  TRIM: { min: 1, max: 2, impl: ([s, chars]) => trimmed(s, chars, true, true) },
  LTRIM: { min: 1, max: 2, impl: ([s, chars]) => trimmed(s, chars, true, false) },
  RTRIM: { min: 1, max: 2, impl: ([s, chars]) => trimmed(s, chars, false, true) },
  LEFT: { min: 2, max: 2, impl: ([s, n]) => leftRight(s, n, 'left') },
  RIGHT: { min: 2, max: 2, impl: ([s, n]) => leftRight(s, n, 'right') },
  SUBSTR: { min: 2, max: 3, impl: substring },
  SUBSTRING: { min: 2, max: 3, impl: substring },
  REPLACE: {
    min: 3,
    max: 3,
    impl: ([s, from, to]) =>
      typeof s === 'string' && typeof from === 'string' && typeof to === 'string'
        ? // An empty search string matches nothing (as in every SQL engine), not between letters.
          from === ''
          ? s
          : s.split(from).join(to)
        : null,
  },
  CONCAT: { min: 1, max: 64, impl: (args) => args.map((a) => toText(a) ?? '').join('') },
  SPLIT_PART: {
    min: 3,
    max: 3,
    impl: ([s, delimiter, n]) => {
      const i = int(n);
      if (typeof s !== 'string' || typeof delimiter !== 'string' || i === null || i < 1) return null;
      return s.split(delimiter)[i - 1] ?? '';
    },
  },
  BEGINS_WITH: {
    min: 2,
    max: 2,
    impl: ([s, p]) =>
      typeof s === 'string' && typeof p === 'string' ? s.startsWith(p) : isNull(s) ? null : false,
  },
  STARTS_WITH: {
    min: 2,
    max: 2,
    impl: ([s, p]) =>
      typeof s === 'string' && typeof p === 'string' ? s.startsWith(p) : isNull(s) ? null : false,
  },
  CONTAINS: { min: 2, max: 2, impl: ([x, y]) => contains(x, y) },
  SIZE: { min: 1, max: 1, impl: ([x]) => size(x) },
  TYPE_OF: { min: 1, max: 1, impl: ([x]) => typeName(x) },

  ABS: {
    min: 1,
    max: 1,
    impl: ([x]) =>
      typeof x === 'number'
        ? Math.abs(x)
        : x instanceof Decimal
          ? new Decimal(x.coef < 0n ? -x.coef : x.coef, x.exp)
          : null,
  },
  ROUND: { min: 1, max: 2, impl: roundWith('half') },
  FLOOR: { min: 1, max: 1, impl: roundWith('floor') },
  CEIL: { min: 1, max: 1, impl: roundWith('ceil') },
  CEILING: { min: 1, max: 1, impl: roundWith('ceil') },

  NOW: { min: 0, max: 0, impl: (_args, env) => toIso(env.nowMs) },
  TO_EPOCH_MS: { min: 1, max: 1, impl: ([x]) => dateArg(x) },
  TO_ISO: { min: 1, max: 1, impl: ([x]) => toIso(dateArg(x)) },
  DATE_TRUNC: {
    min: 2,
    max: 2,
    impl: ([unit, x]) => {
      const u = dateUnit(unit);
      const ms = dateArg(x);
      return u === null || ms === null ? null : toIso(truncate(ms, u));
    },
  },
  DATE_PART: {
    min: 2,
    max: 2,
    impl: ([part, x]) => {
      const ms = dateArg(x);
      return typeof part !== 'string' || ms === null ? null : datePart(ms, part);
    },
  },
  DATE_ADD: {
    min: 3,
    max: 3,
    impl: ([unit, amount, x]) => {
      const u = dateUnit(unit);
      const n = int(amount);
      const ms = dateArg(x);
      return u === null || n === null || ms === null ? null : toIso(addUnits(ms, u, n));
    },
  },
  DATE_DIFF: {
    min: 3,
    max: 3,
    impl: ([unit, a, b]) => {
      const u = dateUnit(unit);
      const from = dateArg(a);
      const to = dateArg(b);
      return u === null || from === null || to === null ? null : diffUnits(from, to, u);
    },
  },
};

function substring([s, start, length]: Value[]): Value {
  const from = int(start ?? null);
  if (typeof s !== 'string' || from === null) return null;
  const chars = Array.from(s);
  const begin = Math.max(0, from - 1);
  if (length === undefined) return chars.slice(begin).join('');
  const count = int(length);
  if (count === null || count < 0) return null;
  return chars.slice(begin, Math.max(begin, from - 1 + count)).join('');
}

/** LEFT(s, n) / RIGHT(s, n): n characters from that end; a negative n drops -n from the other end. */
function leftRight(s: Value, n: Value, side: 'left' | 'right'): Value {
  const count = int(n);
  if (typeof s !== 'string' || count === null) return null;
  const chars = Array.from(s);
  const keep = count >= 0 ? Math.min(count, chars.length) : Math.max(0, chars.length + count);
  return (side === 'left' ? chars.slice(0, keep) : chars.slice(chars.length - keep)).join('');
}

function contains(x: Value, y: Value): Value {
  if (isNull(x) || isNull(y)) return null;
  if (typeof x === 'string') return typeof y === 'string' ? x.includes(y) : false;
  const items = elementsOf(x);
  if (!items) return false;
  const key = hashKey(y);
  return items.some((item) => hashKey(item) === key || (typeof key !== 'string' && deepEquals(item, y)));
}

function size(x: Value): Value {
  if (typeof x === 'string') return Array.from(x).length;
  if (x instanceof Bytes) return Buffer.from(x.base64, 'base64').length;
  if (x instanceof DMap) return Object.keys(x.entries).length;
  if (x instanceof DSet || Array.isArray(x)) return elementsOf(x)!.length;
  return null;
}

export function functionArity(name: string): { min: number; max: number } | undefined {
  const def = defs[name];
  return def ? { min: def.min, max: def.max } : undefined;
}

export function functionImpl(name: string): Impl {
  const def = defs[name];
  if (!def) throw new Error(`Unknown function ${name}`);
  return def.impl;
}

export const functionNames = Object.keys(defs);
