import type { Buffer } from 'node:buffer';
import { compareNumbers } from '../../shared/dynamo/number';
import { EpochKind } from '../migration/classify';
import { STRING_FORMATS, type StringFormat } from './formats';
import { finishHash, FNV_PRIME, HyperLogLog, hash32Tagged, hashedText, taggedSeed } from './hll';
import { DistinctValues, EXACT_LIMIT, numberSight, type SeenNumber, stringSight } from './distinct-values';
import {
  bumpNumber,
  countsOf,
  maxOf,
  minOf,
  NamedCounts,
  addCounts,
  pick,
  numericCompare,
  recordOf,
  YearCache,
} from './value-counts';

export const VALUE_TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];
/**
 * A type's index in VALUE_TYPES, as the walker hands it to visitors and PathStats.typed takes it:
 * a number per value, not a name compared by a switch.
 */
export const TYPE_INDEX = {
  S: 0,
  N: 1,
  B: 2,
  BOOL: 3,
  NULL: 4,
  L: 5,
  M: 6,
  SS: 7,
  NS: 8,
  BS: 9,
} as const satisfies {
  [K in ValueType]: number;
};

export { EXACT_LIMIT } from './distinct-values';

/** Recent texts a path remembers (see PathStats.textOf). */
const RECENT_TEXTS = 4;

/**
 * Whether the bytes at [start, end) are this text. ASCII only: a string of Latin-1 characters
 * could match the bytes of another string's UTF-8, one code unit per byte.
 */
export function isAsciiText(text: string, body: Uint8Array, start: number, end: number): boolean {
  if (text.length !== end - start) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c !== body[start + i]) return false;
  }
  return true;
}

const S_TAG = 83; // 'S': a string's typed key, as the sketch hashes it
const AT = 0x40;
const COLON = 0x3a;
const DASH = 0x2d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

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

const COUNTERS = [
  'items',
  'values',
  'strings',
  'numbers',
  'integers',
  'epochSeconds',
  'epochMillis',
] as const;
type Counters = Pick<PathState, (typeof COUNTERS)[number]>;

/**
 * Runtime form of one path's statistics. The counters live in fields, Maps and arrays and become
 * the plain PathState only when it is read (a checkpoint, a merge, the report): per value there is
 * no keyed store into a record, and a value seen before is counted from what its first sight
 * found, without its format checks (see DistinctValues).
 */
export class PathStats {
  readonly path: string;
  /** The plain counters of the state (items, values, strings, numbers, …). */
  private readonly n: Counters;
  /** The item (its serial in this accumulator) that last had this path: counts items, not values. */
  lastItem = -1;
  private readonly types: NamedCounts<ValueType>;
  private readonly formats: NamedCounts<StringFormat>;
  private minLength: number | undefined;
  private maxLength: number | undefined;
  private readonly lengths: (number | null)[];
  private minNumber: string | undefined;
  private maxNumber: string | undefined;
  private minValue: number;
  private maxValue: number;
  private readonly magnitudes: Map<number, number>;
  private readonly years: Map<number, number>;
  private minSetSize: number | undefined;
  private maxSetSize: number | undefined;
  private minListLength: number | undefined;
  private maxListLength: number | undefined;
  private readonly distinct = new DistinctValues();
  private readonly yearCache = new YearCache();
  /**
   * The last texts a wire walk made strings of on this path while it is counted exactly: a
   * repeated value (a status, a city) is found by its bytes instead of decoded again.
   */
  private readonly recentTexts: string[] = [];
  private recentAt = 0;

  constructor(state: PathState) {
    this.path = state.path;
    this.n = pick(state, COUNTERS);
    this.types = new NamedCounts(VALUE_TYPES, state.types);
    this.formats = new NamedCounts(STRING_FORMATS, state.formats);
    this.minLength = state.minLength;
    this.maxLength = state.maxLength;
    this.lengths = state.lengths;
    this.minNumber = state.minNumber;
    this.maxNumber = state.maxNumber;
    this.minValue = state.minNumber === undefined ? NaN : Number(state.minNumber);
    this.maxValue = state.maxNumber === undefined ? NaN : Number(state.maxNumber);
    this.magnitudes = countsOf(state.magnitudes);
    this.years = countsOf(state.years);
    this.minSetSize = state.minSetSize;
    this.maxSetSize = state.maxSetSize;
    this.minListLength = state.minListLength;
    this.maxListLength = state.maxListLength;
    if (state.exact) for (const [key, n] of state.exact) this.distinct.keep(key, n, this.yearCache);
    else {
      this.distinct.toSketch();
      this.distinct.sketch = state.sketch ? HyperLogLog.fromJSON(state.sketch) : new HyperLogLog();
    }
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

  /** The statistics as plain JSON (built on each read). */
  get state(): PathState {
    return this.toJSON();
  }

  seen(itemSerial: number): void {
    if (this.lastItem === itemSerial) return;
    this.lastItem = itemSerial;
    this.n.items += 1;
  }

  /** A value of VALUE_TYPES[typeIndex]. */
  typed(typeIndex: number): void {
    this.n.values += 1;
    this.types.add(typeIndex);
  }

  /** Counts a string; returns its UTF-8 length (for the item's size). */
  string(s: string): number {
    this.n.strings += 1;
    const d = this.distinct;
    let hash = 0;
    let bytes = -1;
    if (d.strings) {
      const seen = d.strings.get(s);
      if (seen) {
        seen.count += 1;
        this.countString(seen.format, seen.year, seen.lengthBucket);
        return seen.bytes;
      }
    } else {
      // Into the sketch: the hash's pass over the text also tells whether it is ASCII, whose
      // UTF-8 length is its length (no native byte count per value).
      hash = hash32Tagged(S_TAG, s);
      if (hashedText.ascii) bytes = s.length;
    }
    const seen = stringSight(s, this.yearCache, bytes);
    this.countString(seen.format, seen.year, seen.lengthBucket);
    const n = s.length;
    if (this.minLength === undefined || n < this.minLength) this.minLength = n;
    if (this.maxLength === undefined || n > this.maxLength) this.maxLength = n;
    if (d.strings === null) (d.sketch as HyperLogLog).addHash(hash);
    else if (d.hasRoom(n)) d.strings.set(s, { ...seen, order: d.nextOrder() });
    else d.sketchString(s);
    return seen.bytes;
  }

  /**
   * string() of a string the response body holds without escapes at [start, end); returns its
   * UTF-8 length. On a path past the exact count, ASCII text that no format check could match
   * (no digit, `{` or `[` first, no `@` or `:`, not a UUID's length) is hashed from its bytes,
   * as hash32Tagged would hash its text, and never becomes a string; other text takes string().
   */
  stringSpan(body: Buffer, start: number, end: number): number {
    const d = this.distinct;
    if (d.strings) return this.string(this.textOf(body, start, end));
    let h = taggedSeed(S_TAG);
    let high = 0;
    let marks = false;
    for (let i = start; i < end; i++) {
      const c = body[i] as number;
      high |= c;
      if (c === AT || c === COLON) marks = true;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    const n = end - start;
    const first = body[start] as number;
    if (
      high >= 0x80 ||
      marks ||
      (first >= 48 && first <= 57) ||
      first === OPEN_BRACE ||
      first === OPEN_BRACKET ||
      (n === 36 && body[start + 8] === DASH)
    )
      return this.string(body.toString('utf8', start, end));
    this.n.strings += 1;
    this.countString(-1, undefined, n === 0 ? 0 : 32 - Math.clz32(n));
    if (this.minLength === undefined || n < this.minLength) this.minLength = n;
    if (this.maxLength === undefined || n > this.maxLength) this.maxLength = n;
    (d.sketch as HyperLogLog).addHash(finishHash(h));
    return n;
  }

  /** number() of a number the response body holds without escapes at [start, end). */
  numberSpan(body: Buffer, start: number, end: number): number {
    const n = this.distinct.numbers ? this.textOf(body, start, end) : body.toString('utf8', start, end);
    this.number(n);
    return n.length;
  }

  /** The text at [start, end) of the body: one of the recent texts when the bytes are its. */
  private textOf(body: Buffer, start: number, end: number): string {
    const recent = this.recentTexts;
    for (let i = 0; i < recent.length; i++) {
      const text = recent[i] as string;
      if (isAsciiText(text, body, start, end)) return text;
    }
    const text = body.toString('utf8', start, end);
    recent[this.recentAt] = text;
    this.recentAt = (this.recentAt + 1) % RECENT_TEXTS;
    return text;
  }

  number(n: string): void {
    this.n.numbers += 1;
    const d = this.distinct;
    if (d.numbers) {
      const seen = d.numbers.get(n);
      if (seen) {
        // Its value is already within min and max.
        seen.count += 1;
        this.countNumber(seen.integer, seen.epoch, seen.year, seen.magnitude);
        return;
      }
    }
    const v = Number(n);
    const seen = numberSight(n, v, this.yearCache);
    this.countNumber(seen.integer, seen.epoch, seen.year, seen.magnitude);
    // The bounds' doubles are kept beside their text: the exact decimal comparison runs only on a
    // tie of doubles (it was a fifth of the analysis when it ran for every number).
    if (this.minNumber === undefined) {
      this.minNumber = n;
      this.minValue = v;
    } else if (
      v < this.minValue ||
      (v === this.minValue && n !== this.minNumber && compareNumbers(n, this.minNumber) < 0)
    ) {
      this.minNumber = n;
      this.minValue = v;
    }
    if (this.maxNumber === undefined) {
      this.maxNumber = n;
      this.maxValue = v;
    } else if (
      v > this.maxValue ||
      (v === this.maxValue && n !== this.maxNumber && compareNumbers(n, this.maxNumber) > 0)
    ) {
      this.maxNumber = n;
      this.maxValue = v;
    }
    // Distinct by value, not by text: DynamoDB already stores numbers canonically.
    if (d.hasRoom(0)) (d.numbers as Map<string, SeenNumber>).set(n, { ...seen, order: d.nextOrder() });
    else d.sketchNumber(n);
  }

  binary(base64: string): void {
    this.distinct.other(`B${base64}`, base64.length);
  }

  scalar(key: string): void {
    this.distinct.other(key, 0);
  }

  setSize(size: number): void {
    if (this.minSetSize === undefined || size < this.minSetSize) this.minSetSize = size;
    if (this.maxSetSize === undefined || size > this.maxSetSize) this.maxSetSize = size;
  }

  listLength(size: number): void {
    if (this.minListLength === undefined || size < this.minListLength) this.minListLength = size;
    if (this.maxListLength === undefined || size > this.maxListLength) this.maxListLength = size;
  }

  /** Distinct values: exact while counted exactly, else the sketch's estimate. */
  distinctCount(): { count: number; isExact: boolean } {
    if (this.distinct.isExact) return { count: this.distinct.exactCount, isExact: true };
    return { count: (this.distinct.sketch as HyperLogLog).estimate(), isExact: false };
  }

  /** The most common values, when they were counted exactly. */
  topValues(limit: number): [string, number][] | undefined {
    const exact = this.distinct.entries();
    if (!exact) return undefined;
    return exact.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  }

  merge(other: PathStats): void {
    addCounts(this.n, other.n, COUNTERS);
    this.types.addAll(other.types);
    this.formats.addAll(other.formats);
    for (const [k, v] of other.magnitudes) bumpNumber(this.magnitudes, k, v);
    for (const [k, v] of other.years) bumpNumber(this.years, k, v);
    other.lengths.forEach((v, i) => (this.lengths[i] = (this.lengths[i] ?? 0) + (v ?? 0)));
    this.minLength = minOf(this.minLength, other.minLength);
    this.maxLength = maxOf(this.maxLength, other.maxLength);
    this.minSetSize = minOf(this.minSetSize, other.minSetSize);
    this.maxSetSize = maxOf(this.maxSetSize, other.maxSetSize);
    this.minListLength = minOf(this.minListLength, other.minListLength);
    this.maxListLength = maxOf(this.maxListLength, other.maxListLength);
    if (
      other.minNumber !== undefined &&
      (this.minNumber === undefined || numericCompare(other.minNumber, this.minNumber) < 0)
    ) {
      this.minNumber = other.minNumber;
      this.minValue = other.minValue;
    }
    if (
      other.maxNumber !== undefined &&
      (this.maxNumber === undefined || numericCompare(other.maxNumber, this.maxNumber) > 0)
    ) {
      this.maxNumber = other.maxNumber;
      this.maxValue = other.maxValue;
    }
    const theirs = other.distinct.entries();
    if (this.distinct.isExact && theirs) {
      for (const [key, n] of theirs) this.distinct.keep(key, n, this.yearCache);
      if (this.distinct.exactCount > EXACT_LIMIT) this.distinct.toSketch();
      return;
    }
    const sketch = this.distinct.toSketch();
    if (theirs) for (const [key] of theirs) sketch.add(key);
    else sketch.merge(other.distinct.sketch as HyperLogLog);
  }

  toJSON(): PathState {
    const exact = this.distinct.entries();
    return {
      path: this.path,
      items: this.n.items,
      values: this.n.values,
      types: this.types.toRecord(),
      strings: this.n.strings,
      formats: this.formats.toRecord(),
      ...(this.minLength !== undefined ? { minLength: this.minLength } : {}),
      ...(this.maxLength !== undefined ? { maxLength: this.maxLength } : {}),
      lengths: this.lengths,
      numbers: this.n.numbers,
      integers: this.n.integers,
      ...(this.minNumber !== undefined ? { minNumber: this.minNumber } : {}),
      ...(this.maxNumber !== undefined ? { maxNumber: this.maxNumber } : {}),
      epochSeconds: this.n.epochSeconds,
      epochMillis: this.n.epochMillis,
      magnitudes: recordOf(this.magnitudes),
      years: recordOf(this.years),
      ...(this.minSetSize !== undefined ? { minSetSize: this.minSetSize } : {}),
      ...(this.maxSetSize !== undefined ? { maxSetSize: this.maxSetSize } : {}),
      ...(this.minListLength !== undefined ? { minListLength: this.minListLength } : {}),
      ...(this.maxListLength !== undefined ? { maxListLength: this.maxListLength } : {}),
      exact,
      ...(exact ? {} : { sketch: (this.distinct.sketch as HyperLogLog).toJSON() }),
    };
  }

  private countString(format: number, year: number | undefined, lengthBucket: number): void {
    if (format >= 0) this.formats.add(format);
    if (year !== undefined) bumpNumber(this.years, year);
    this.lengths[lengthBucket] = (this.lengths[lengthBucket] ?? 0) + 1;
  }

  private countNumber(integer: boolean, epoch: number, year: number | undefined, magnitude: number): void {
    if (integer) this.n.integers += 1;
    if (epoch !== EpochKind.none) {
      if (epoch === EpochKind.millis) this.n.epochMillis += 1;
      else this.n.epochSeconds += 1;
      bumpNumber(this.years, year as number);
    }
    bumpNumber(this.magnitudes, magnitude);
  }
}
