import { compareNumbers } from '../../shared/dynamo/number';

// The small counters PathStats keeps per path, and how numbers are read for them.

export function numericCompare(a: string, b: string): number {
  // Number() rounds monotonically, so a difference there is the true order; ties need the digits.
  const d = Number(a) - Number(b);
  return d !== 0 && !Number.isNaN(d) ? d : compareNumbers(a, b);
}

export function isIntegerText(n: string): boolean {
  for (let i = n.charCodeAt(0) === 45 ? 1 : 0; i < n.length; i++) {
    const c = n.charCodeAt(i);
    if (c < 48 || c > 57) return Number.isInteger(Number(n));
  }
  return true;
}

export function magnitudeOf(n: string, v: number): number {
  const abs = Math.abs(v);
  if (abs < 1) return 0;
  const digits = Math.min(126, Math.floor(Math.log10(abs)) + 1);
  return n.charCodeAt(0) === 45 ? -digits : digits;
}

/**
 * The UTC year of epoch milliseconds, remembering the last year's bounds: timestamps of one path
 * mostly fall in a few years, and a Date per value was a tenth of the analysis.
 */
export class YearCache {
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

/**
 * Counts by a small fixed set of names (types, formats), listed in the order they were first
 * counted, as the record they are reported in lists them.
 */
export class NamedCounts<K extends string> {
  private readonly counts: number[];
  private readonly seen: number[] = [];

  constructor(
    private readonly names: readonly K[],
    from: Partial<Record<K, number>>,
  ) {
    this.counts = names.map(() => 0);
    for (const [name, n] of Object.entries(from) as [K, number][]) this.add(names.indexOf(name), n);
  }

  add(index: number, by = 1): void {
    if (this.counts[index] === 0) this.seen.push(index);
    this.counts[index] = (this.counts[index] as number) + by;
  }

  addAll(other: NamedCounts<K>): void {
    for (const i of other.seen) this.add(i, other.counts[i]);
  }

  toRecord(): Partial<Record<K, number>> {
    const out: Partial<Record<K, number>> = {};
    for (const i of this.seen) out[this.names[i] as K] = this.counts[i];
    return out;
  }
}

/** Counts by number (years, magnitudes): the record's keys are the numbers' text. */
export function countsOf(record: Record<string, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [key, n] of Object.entries(record)) out.set(Number(key), n);
  return out;
}

export function recordOf(counts: Map<number, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of counts) out[String(key)] = n;
  return out;
}

export function bumpNumber(counts: Map<number, number>, key: number, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

export function minOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

export function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** Adds `from`'s counters named in `keys` to `into`'s (a merge of two segments' statistics). */
export function addCounts<T extends Record<K, number>, K extends keyof T>(
  into: T,
  from: T,
  keys: readonly K[],
): void {
  for (const k of keys) (into[k] as number) += from[k];
}

/** The counters named in `keys`, as an object of their own. */
export function pick<T extends Record<K, number>, K extends keyof T>(
  from: T,
  keys: readonly K[],
): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = from[k];
  return out;
}
