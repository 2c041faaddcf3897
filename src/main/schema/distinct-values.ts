import { classifyEpoch, EpochKind } from '../migration/classify';
import { FORMAT, stringFormatIndex, yearOfIso } from './formats';
import { HyperLogLog, hash32Tagged } from './hll';
import { isIntegerText, magnitudeOf, type YearCache } from './value-counts';

/** Distinct values kept exactly (with counts) before the path switches to the sketch. */
export const EXACT_LIMIT = 64;
/** Longer values are never kept exactly: the most common values are for short, repeated ones. */
export const MAX_EXACT_TEXT = 256;

const S = 83; // 'S'
const N = 78; // 'N'

/** A value counted exactly. `order` is its first sight: the state lists values in that order. */
export interface Counted {
  count: number;
  order: number;
}

/**
 * What a string told the statistics the first time it was seen, so a repeat counts it again
 * without the format checks, the UTF-8 length and a typed key built per value.
 */
export interface SeenString extends Counted {
  /** Index in STRING_FORMATS, or -1. */
  format: number;
  /** The year it counts in the year histogram, if it is date-like. */
  year: number | undefined;
  lengthBucket: number;
  bytes: number;
}

export interface SeenNumber extends Counted {
  integer: boolean;
  /** EpochKind */
  epoch: number;
  year: number | undefined;
  magnitude: number;
}

/**
 * A path's distinct values: exactly (a count per value) while there are at most EXACT_LIMIT of
 * them, then a HyperLogLog sketch. Strings and numbers are keyed by their own text, with what the
 * statistics found in them; binary, BOOL and NULL by their typed key (`B…`, `BOOLtrue`, `NULL`).
 * The typed key `S…`/`N…` is what the state stores and the sketch hashes, built only for those.
 */
export class DistinctValues {
  /** null once the sketch took over. */
  strings: Map<string, SeenString> | null = new Map();
  numbers: Map<string, SeenNumber> | null = new Map();
  others: Map<string, Counted> | null = new Map();
  sketch: HyperLogLog | undefined;
  private order = 0;

  get isExact(): boolean {
    return this.strings !== null;
  }

  get exactCount(): number {
    return (this.strings?.size ?? 0) + (this.numbers?.size ?? 0) + (this.others?.size ?? 0);
  }

  /** Whether a new value of this length still fits the exact count (else the sketch takes over). */
  hasRoom(length: number): boolean {
    return this.strings !== null && length <= MAX_EXACT_TEXT && this.exactCount < EXACT_LIMIT;
  }

  nextOrder(): number {
    return this.order++;
  }

  /** A string not kept exactly (new, and no room): into the sketch. */
  sketchString(s: string): void {
    this.toSketch().addHash(hash32Tagged(S, s));
  }

  sketchNumber(n: string): void {
    this.toSketch().addHash(hash32Tagged(N, n));
  }

  /** A binary, BOOL or NULL value by its typed key. */
  other(key: string, length: number): void {
    const others = this.others;
    if (others) {
      const seen = others.get(key);
      if (seen) {
        seen.count += 1;
        return;
      }
      if (this.hasRoom(length)) {
        others.set(key, { count: 1, order: this.nextOrder() });
        return;
      }
    }
    this.toSketch().add(key);
  }

  /** The sketch, with every exactly counted value moved into it. */
  toSketch(): HyperLogLog {
    if (this.strings === null) return this.sketch as HyperLogLog;
    const sketch = (this.sketch ??= new HyperLogLog());
    for (const s of this.strings.keys()) sketch.addHash(hash32Tagged(S, s));
    for (const n of (this.numbers as Map<string, SeenNumber>).keys()) sketch.addHash(hash32Tagged(N, n));
    for (const key of (this.others as Map<string, Counted>).keys()) sketch.add(key);
    this.strings = null;
    this.numbers = null;
    this.others = null;
    return sketch;
  }

  /** [typed key, count] in order of first sight, as the state stores them; null once sketched. */
  entries(): [string, number][] | null {
    if (this.strings === null) return null;
    const all: [string, Counted][] = [];
    for (const [s, c] of this.strings) all.push([`S${s}`, c]);
    for (const [n, c] of this.numbers as Map<string, SeenNumber>) all.push([`N${n}`, c]);
    for (const [key, c] of this.others as Map<string, Counted>) all.push([key, c]);
    return all.sort((a, b) => a[1].order - b[1].order).map(([key, c]) => [key, c.count]);
  }

  /** A value counted exactly in a state or another segment's statistics, by its typed key. */
  keep(key: string, count: number, years: YearCache): void {
    const tag = key.charCodeAt(0);
    if (tag === S)
      keepIn(this.strings, key.slice(1), count, (s) => ({
        ...stringSight(s, years),
        count,
        order: this.nextOrder(),
      }));
    else if (tag === N)
      keepIn(this.numbers, key.slice(1), count, (n) => ({
        ...numberSight(n, Number(n), years),
        count,
        order: this.nextOrder(),
      }));
    else keepIn(this.others, key, count, () => ({ count, order: this.nextOrder() }));
  }
}

function keepIn<T extends Counted>(
  values: Map<string, T> | null,
  key: string,
  count: number,
  make: (key: string) => T,
): void {
  const map = values as Map<string, T>;
  const seen = map.get(key);
  if (seen) seen.count += count;
  else map.set(key, make(key));
}

const scratchString: SeenString = {
  count: 1,
  order: -1,
  format: -1,
  year: undefined,
  lengthBucket: 0,
  bytes: 0,
};
const scratchNumber: SeenNumber = {
  count: 1,
  order: -1,
  integer: false,
  epoch: 0,
  year: undefined,
  magnitude: 0,
};

/**
 * What the statistics read in a string, counted once (count 1). In a scratch object: on a path
 * of many distinct values nothing is allocated per value; a value kept exactly is copied.
 * `bytes`: its UTF-8 length when the caller knows it, else counted here.
 */
export function stringSight(s: string, years: YearCache, bytes = -1): SeenString {
  const format = stringFormatIndex(s);
  const n = s.length;
  const sight = scratchString;
  sight.format = format;
  sight.year = format >= 0 ? yearOfString(s, format, years) : undefined;
  sight.lengthBucket = n === 0 ? 0 : 32 - Math.clz32(n);
  sight.bytes = bytes >= 0 ? bytes : Buffer.byteLength(s, 'utf8');
  return sight;
}

export function numberSight(n: string, v: number, years: YearCache): SeenNumber {
  const sight = scratchNumber;
  sight.integer = isIntegerText(n);
  sight.epoch = classifyEpoch(n);
  sight.year =
    sight.epoch === EpochKind.none ? undefined : years.of(sight.epoch === EpochKind.millis ? v : v * 1000);
  sight.magnitude = magnitudeOf(n, v);
  return sight;
}

function yearOfString(s: string, format: number, years: YearCache): number | undefined {
  if (format === FORMAT.isoDateTime || format === FORMAT.isoDate) return yearOfIso(s);
  if (format === FORMAT.epochString)
    return years.of(classifyEpoch(s) === EpochKind.millis ? Number(s) : Number(s) * 1000);
  return undefined;
}
