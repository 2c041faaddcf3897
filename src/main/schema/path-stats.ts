import { compareNumbers } from '../../shared/dynamo/number';
import { EpochKind } from '../migration/classify';
import { classifyEpoch, type StringFormat, stringFormat, yearOfIso } from './formats';
import { HyperLogLog } from './hll';

export const VALUE_TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** Distinct values kept exactly (with counts) before the path switches to the sketch. */
export const EXACT_LIMIT = 64;
/** Longer values are never kept exactly: the most common values are for short, repeated ones. */
const MAX_EXACT_TEXT = 256;

/** Plain JSON, so a checkpoint can persist it and another segment's state can merge into it. */
export interface PathState {
  path: string;
  items: number;
  values: number;
  types: Partial<Record<ValueType, number>>;
  strings: number;
  formats: Partial<Record<StringFormat, number>>;
  minLength?: number;
  maxLength?: number;
  /** Bucket 0 is the empty string, bucket k holds lengths in [2^(k-1), 2^k). */
  lengths: (number | null)[];
  numbers: number;
  integers: number;
  minNumber?: string;
  maxNumber?: string;
  epochSeconds: number;
  epochMillis: number;
  /** Bucket k > 0 holds numbers of k integer digits, -k their negatives, 0 those between -1 and 1. */
  magnitudes: Record<string, number>;
  /** Years of date-like values (ISO strings, epoch numbers, epoch strings). */
  years: Record<string, number>;
  minSetSize?: number;
  maxSetSize?: number;
  minListLength?: number;
  maxListLength?: number;
  /** [typed value, count] while the path has at most EXACT_LIMIT distinct values; else null. */
  exact: [string, number][] | null;
  /** The sketch's registers (base64) once exact counting stopped. */
  sketch?: string;
}

const bump = (record: Record<string, number>, key: string, by = 1) => {
  record[key] = (record[key] ?? 0) + by;
};

function numericCompare(a: string, b: string): number {
  // Number() rounds monotonically, so a difference there is the true order; ties need the digits.
  const d = Number(a) - Number(b);
  return d !== 0 && !Number.isNaN(d) ? d : compareNumbers(a, b);
}

function isIntegerText(n: string): boolean {
  for (let i = n.charCodeAt(0) === 45 ? 1 : 0; i < n.length; i++) {
    const c = n.charCodeAt(i);
    if (c < 48 || c > 57) return Number.isInteger(Number(n));
  }
  return true;
}

function magnitudeOf(n: string): number {
  const v = Math.abs(Number(n));
  if (v < 1) return 0;
  const digits = Math.min(126, Math.floor(Math.log10(v)) + 1);
  return n.charCodeAt(0) === 45 ? -digits : digits;
}

/**
 * The UTC year of epoch milliseconds, remembering the last year's bounds: timestamps of one path
 * mostly fall in a few years, and a Date per value was a tenth of the analysis.
 */
class YearCache {
  private from = 0;
  private to = -1;
  private year = 0;

  of(ms: number): number {
    if (ms >= this.from && ms < this.to) return this.year;
    const year = new Date(ms).getUTCFullYear();
    if (Number.isNaN(year)) return year;
    this.year = year;
    this.from = Date.UTC(year, 0, 1);
    this.to = Date.UTC(year + 1, 0, 1);
    return year;
  }
}

/** Runtime form of one path's statistics: the distinct counter is a Map or a sketch. */
export class PathStats {
  readonly state: PathState;
  /** The item (its serial in this accumulator) that last had this path: counts items, not values. */
  lastItem = -1;
  private exact: Map<string, number> | null;
  private sketch: HyperLogLog | undefined;
  private minValue: number;
  private maxValue: number;
  private readonly years = new YearCache();

  constructor(state: PathState) {
    this.state = state;
    this.minValue = state.minNumber === undefined ? NaN : Number(state.minNumber);
    this.maxValue = state.maxNumber === undefined ? NaN : Number(state.maxNumber);
    this.exact = state.exact ? new Map(state.exact) : null;
    this.sketch = state.sketch ? HyperLogLog.fromJSON(state.sketch) : undefined;
  }

  static empty(path: string): PathStats {
    return new PathStats({
      path,
      items: 0,
      values: 0,
      types: {},
      strings: 0,
      formats: {},
      lengths: [],
      numbers: 0,
      integers: 0,
      epochSeconds: 0,
      epochMillis: 0,
      magnitudes: {},
      years: {},
      exact: [],
    });
  }

  seen(itemSerial: number): void {
    if (this.lastItem === itemSerial) return;
    this.lastItem = itemSerial;
    this.state.items += 1;
  }

  typed(type: ValueType): void {
    this.state.values += 1;
    bump(this.state.types, type);
  }

  string(s: string): void {
    const st = this.state;
    st.strings += 1;
    const format = stringFormat(s);
    if (format) {
      bump(st.formats, format);
      if (format === 'isoDateTime' || format === 'isoDate') bump(st.years, String(yearOfIso(s)));
      else if (format === 'epochString') {
        const ms = classifyEpoch(s) === EpochKind.millis ? Number(s) : Number(s) * 1000;
        bump(st.years, String(this.years.of(ms)));
      }
    }
    const n = s.length;
    if (st.minLength === undefined || n < st.minLength) st.minLength = n;
    if (st.maxLength === undefined || n > st.maxLength) st.maxLength = n;
    const bucket = n === 0 ? 0 : 32 - Math.clz32(n);
    st.lengths[bucket] = (st.lengths[bucket] ?? 0) + 1;
    this.distinct(s.length <= MAX_EXACT_TEXT ? `S${s}` : undefined, `S${s}`);
  }

  number(n: string): void {
    const st = this.state;
    st.numbers += 1;
    if (isIntegerText(n)) st.integers += 1;
    // The bounds' doubles are kept beside their text: the exact decimal comparison runs only on a
    // tie of doubles (it was a fifth of the analysis when it ran for every number).
    const v = Number(n);
    if (st.minNumber === undefined) {
      st.minNumber = n;
      this.minValue = Number(n);
    } else if (
      v < this.minValue ||
      (v === this.minValue && n !== st.minNumber && compareNumbers(n, st.minNumber) < 0)
    ) {
      st.minNumber = n;
      this.minValue = v;
    }
    if (st.maxNumber === undefined) {
      st.maxNumber = n;
      this.maxValue = v;
    } else if (
      v > this.maxValue ||
      (v === this.maxValue && n !== st.maxNumber && compareNumbers(n, st.maxNumber) > 0)
    ) {
      st.maxNumber = n;
      this.maxValue = v;
    }
    const epoch = classifyEpoch(n);
    if (epoch !== EpochKind.none) {
      if (epoch === EpochKind.millis) st.epochMillis += 1;
      else st.epochSeconds += 1;
      bump(st.years, String(this.years.of(epoch === EpochKind.millis ? v : v * 1000)));
    }
    bump(st.magnitudes, String(magnitudeOf(n)));
    // Distinct by value, not by text: DynamoDB already stores numbers canonically.
    this.distinct(`N${n}`, `N${n}`);
  }

  binary(base64: string): void {
    this.distinct(base64.length <= MAX_EXACT_TEXT ? `B${base64}` : undefined, `B${base64}`);
  }

  scalar(key: string): void {
    this.distinct(key, key);
  }

  setSize(size: number): void {
    const st = this.state;
    if (st.minSetSize === undefined || size < st.minSetSize) st.minSetSize = size;
    if (st.maxSetSize === undefined || size > st.maxSetSize) st.maxSetSize = size;
  }

  listLength(size: number): void {
    const st = this.state;
    if (st.minListLength === undefined || size < st.minListLength) st.minListLength = size;
    if (st.maxListLength === undefined || size > st.maxListLength) st.maxListLength = size;
  }

  /** `exactKey` undefined: the value is too long to keep, so exact counting ends here. */
  private distinct(exactKey: string | undefined, hashKey: string): void {
    if (this.exact) {
      if (exactKey !== undefined) {
        const count = this.exact.get(exactKey);
        if (count !== undefined || this.exact.size < EXACT_LIMIT) {
          this.exact.set(exactKey, (count ?? 0) + 1);
          return;
        }
      }
      this.toSketch();
    }
    (this.sketch as HyperLogLog).add(hashKey);
  }

  private toSketch(): void {
    const sketch = (this.sketch ??= new HyperLogLog());
    for (const key of (this.exact as Map<string, number>).keys()) sketch.add(key);
    this.exact = null;
  }

  /** Distinct values: exact while counted exactly, else the sketch's estimate. */
  distinctCount(): { count: number; isExact: boolean } {
    if (this.exact) return { count: this.exact.size, isExact: true };
    return { count: (this.sketch as HyperLogLog).estimate(), isExact: false };
  }

  /** The most common values, when they were counted exactly. */
  topValues(limit: number): [string, number][] | undefined {
    if (!this.exact) return undefined;
    return [...this.exact].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  }

  merge(other: PathStats): void {
    const a = this.state;
    const b = other.state;
    a.items += b.items;
    a.values += b.values;
    a.strings += b.strings;
    a.numbers += b.numbers;
    a.integers += b.integers;
    a.epochSeconds += b.epochSeconds;
    a.epochMillis += b.epochMillis;
    for (const [k, v] of Object.entries(b.types)) bump(a.types, k, v);
    for (const [k, v] of Object.entries(b.formats)) bump(a.formats, k, v);
    for (const [k, v] of Object.entries(b.magnitudes)) bump(a.magnitudes, k, v);
    for (const [k, v] of Object.entries(b.years)) bump(a.years, k, v);
    b.lengths.forEach((v, i) => (a.lengths[i] = (a.lengths[i] ?? 0) + (v ?? 0)));
    a.minLength = minOf(a.minLength, b.minLength);
    a.maxLength = maxOf(a.maxLength, b.maxLength);
    a.minSetSize = minOf(a.minSetSize, b.minSetSize);
    a.maxSetSize = maxOf(a.maxSetSize, b.maxSetSize);
    a.minListLength = minOf(a.minListLength, b.minListLength);
    a.maxListLength = maxOf(a.maxListLength, b.maxListLength);
    if (
      b.minNumber !== undefined &&
      (a.minNumber === undefined || numericCompare(b.minNumber, a.minNumber) < 0)
    )
      a.minNumber = b.minNumber;
    if (
      b.maxNumber !== undefined &&
      (a.maxNumber === undefined || numericCompare(b.maxNumber, a.maxNumber) > 0)
    )
      a.maxNumber = b.maxNumber;
    if (this.exact && other.exact) {
      for (const [k, v] of other.exact) this.exact.set(k, (this.exact.get(k) ?? 0) + v);
      if (this.exact.size > EXACT_LIMIT) this.toSketch();
      return;
    }
    if (this.exact) this.toSketch();
    const sketch = this.sketch as HyperLogLog;
    if (other.exact) for (const key of other.exact.keys()) sketch.add(key);
    else sketch.merge(other.sketch as HyperLogLog);
  }

  toJSON(): PathState {
    return {
      ...this.state,
      exact: this.exact ? [...this.exact] : null,
      ...(this.sketch && !this.exact ? { sketch: this.sketch.toJSON() } : {}),
    };
  }
}

function minOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
