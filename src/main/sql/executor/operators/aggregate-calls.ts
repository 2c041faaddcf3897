import { POW10 } from '../../values/arith';
import { ExactSum } from '../../values/exact-sum';
import { isNull, type Value } from '../../values/value';
import type { AggregateCall, BExpr } from '../../binder/bound';
import type { CompileEnv } from '../compile';
import { NOT_NUMBER, SAFE_TOTAL, type ScaledNumbers } from '../column-views';
import type { Frame } from '../frame';

/**
 * The aggregate calls of the batched GROUP BY (aggregate-batches.ts), each adding a batch's rows
 * into per-group typed arrays: COUNT(*) from the group sizes, COUNT(col), SUM/AVG and MIN/MAX
 * from the column's scaled integers. The loops that run per row are functions of typed arrays
 * and numbers on their own: V8 optimizes them once, on the first statement, and no later
 * statement's objects change what they see (inlined in the classes, they were deoptimized again
 * in a statement's first runs).
 */

export function bareColumn(e: BExpr | undefined): { binding: number; attr: string } | undefined {
  return e?.kind === 'col' && e.path.length === 0 ? e : undefined;
}

/** One aggregate call over typed arrays: `add` per batch, `finish` once (undefined: not exact). */
export interface TypedCall {
  add(batch: Frame, groupOf: Int32Array, groups: number): void;
  finish(groups: number): Value[] | undefined;
  /** Values that were not numbers, which SUM and AVG skip (the caller warns). */
  skipped: number;
  /** The binding whose rows it reads; undefined for COUNT(*), which reads none. */
  readonly binding?: number;
}

export function typedCall(call: AggregateCall, env: CompileEnv): TypedCall | undefined {
  const column = bareColumn(call.arg);
  const table = column && env.tables[column.binding];
  if (!column || !table) return undefined;
  if (call.name === 'COUNT') {
    // Read in place: asking a string column for numbers (or the reverse) would decode it.
    const read = table.reader(column.attr);
    return new CountPresent(column.binding, read ? (i) => !isNull(read(i)) : () => false);
  }
  const { name } = call;
  const isSum = name === 'SUM' || name === 'AVG';
  // SUM and AVG read the scaled numbers on the general path too; MIN and MAX only where the
  // column is held as numbers, so MIN(name) does not decode the names to find out.
  if (!isSum && !table.holdsNumbers(column.attr)) return undefined;
  const numbers = table.scaledNumbers(column.attr);
  if (!numbers) return undefined;
  return isSum ? new ScaledSum(column.binding, numbers, name) : new ScaledBest(column.binding, numbers, name);
}

/** A Float64Array per group that grows as groups appear. */
export function grown(array: Float64Array, groups: number, fill = 0): Float64Array {
  if (groups <= array.length) return array;
  const next = new Float64Array(Math.max(groups, array.length * 2)).fill(fill);
  next.set(array);
  return next;
}

/** COUNT(*): the rows Groups counted as it assigned them. */
export class CountRows implements TypedCall {
  skipped = 0;

  constructor(private readonly groups: { sizes: Float64Array }) {}

  add(): void {}

  finish(groups: number): Value[] {
    return Array.from(this.groups.sizes.subarray(0, groups));
  }
}

class CountPresent implements TypedCall {
  skipped = 0;
  private counts: Float64Array = new Float64Array(16);

  constructor(
    readonly binding: number,
    private readonly isPresent: (row: number) => boolean,
  ) {}

  add(batch: Frame, groupOf: Int32Array, groups: number): void {
    const counts = (this.counts = grown(this.counts, groups));
    const rows = batch.idx[this.binding]!;
    for (let r = 0; r < batch.length; r++) {
      const i = rows[r]!;
      if (i >= 0 && this.isPresent(i)) counts[groupOf[r]!]! += 1;
    }
  }

  finish(groups: number): Value[] {
    return Array.from(this.counts.subarray(0, groups));
  }
}

/**
 * SUM and AVG as the general path's scaledSums: integers of one scale added per group, exact
 * while the magnitudes added stay under SAFE_TOTAL (checked once at the end).
 */
class ScaledSum implements TypedCall {
  skipped = 0;
  private sums: Float64Array = new Float64Array(16);
  private counts: Float64Array = new Float64Array(16);
  /** MAGNITUDE: the magnitudes added; SKIPPED: values that are not numbers. */
  private readonly tally = new Float64Array(2);

  constructor(
    readonly binding: number,
    private readonly numbers: ScaledNumbers,
    private readonly name: 'SUM' | 'AVG',
  ) {}

  add(batch: Frame, groupOf: Int32Array, groups: number): void {
    this.sums = grown(this.sums, groups);
    this.counts = grown(this.counts, groups);
    const { scaled, kind } = this.numbers;
    const tally = this.tally;
    addScaledByGroup(
      batch.idx[this.binding]!,
      batch.length,
      groupOf,
      scaled,
      kind,
      this.sums,
      this.counts,
      tally,
    );
    this.skipped = tally[SKIPPED]!;
  }

  finish(groups: number): Value[] | undefined {
    if (this.tally[MAGNITUDE]! >= SAFE_TOTAL) return undefined;
    const { scale } = this.numbers;
    const isSum = this.name === 'SUM';
    const out = new Array<Value>(groups);
    for (let g = 0; g < groups; g++) out[g] = scaledTotal(this.sums[g]!, this.counts[g] ?? 0, scale, isSum);
    return out;
  }
}

/**
 * MIN and MAX of numbers by their scaled integers (the same order as the numbers); a value that
 * is not a number sends the call to the general path, which prefers numbers and says so.
 */
class ScaledBest implements TypedCall {
  skipped = 0;
  private best: Float64Array = new Float64Array(16).fill(NaN);
  private hasOther = false;

  constructor(
    readonly binding: number,
    private readonly numbers: ScaledNumbers,
    private readonly name: 'MIN' | 'MAX',
  ) {}

  add(batch: Frame, groupOf: Int32Array, groups: number): void {
    this.best = grown(this.best, groups, NaN);
    const { scaled, kind } = this.numbers;
    const rows = batch.idx[this.binding]!;
    const hasOther = bestByGroup(rows, batch.length, groupOf, scaled, kind, this.best, this.name === 'MAX');
    this.hasOther ||= hasOther;
  }

  finish(groups: number): Value[] | undefined {
    if (this.hasOther) return undefined;
    const p = POW10[this.numbers.scale]!;
    // Every number survived round(v · p) / p === v when it was scaled, so this gives v back.
    return Array.from(this.best.subarray(0, groups), (s) => (s !== s ? null : s / p));
  }
}

/**
 * A group's SUM or AVG from its scaled integers added (`acc`, exact below SAFE_TOTAL) and how
 * many numbers were added: NULL for none; ExactSum.total's own first case without an ExactSum.
 */
export function scaledTotal(acc: number, count: number, scale: number, isSum: boolean): Value {
  if (count === 0) return null;
  if (isSum && acc < 1e15 && acc > -1e15) return acc / POW10[scale]! + 0;
  const sum = ExactSum.fromScaled(acc, scale, count);
  return isSum ? sum.total() : sum.average();
}

const MAGNITUDE = 0;
const SKIPPED = 1;

/** SUM/AVG's per-batch loop: scaled integers added per group; tally gathers MAGNITUDE and SKIPPED. */
export function addScaledByGroup(
  rows: Int32Array,
  length: number,
  groupOf: Int32Array,
  scaled: Float64Array,
  kind: Uint8Array,
  sums: Float64Array,
  counts: Float64Array,
  tally: Float64Array,
): void {
  let magnitude = tally[MAGNITUDE]!;
  let skipped = tally[SKIPPED]!;
  for (let r = 0; r < length; r++) {
    const i = rows[r]!;
    if (i < 0) continue;
    const k = kind[i]!;
    if (k !== 1) {
      if (k === NOT_NUMBER) skipped += 1;
      continue;
    }
    const s = scaled[i]!;
    magnitude += s < 0 ? -s : s;
    const g = groupOf[r]!;
    sums[g]! += s;
    counts[g]! += 1;
  }
  tally[MAGNITUDE] = magnitude;
  tally[SKIPPED] = skipped;
}

/** MIN/MAX's per-batch loop; true when a value that is not a number was met. */
function bestByGroup(
  rows: Int32Array,
  length: number,
  groupOf: Int32Array,
  scaled: Float64Array,
  kind: Uint8Array,
  best: Float64Array,
  isMax: boolean,
): boolean {
  let hasOther = false;
  for (let r = 0; r < length; r++) {
    const i = rows[r]!;
    if (i < 0) continue;
    const k = kind[i]!;
    if (k !== 1) {
      if (k === NOT_NUMBER) hasOther = true;
      continue;
    }
    const s = scaled[i]!;
    const g = groupOf[r]!;
    const current = best[g]!;
    // NaN: no number in the group yet. Ties keep the first, as the general path does.
    if (current !== current || (isMax ? s > current : s < current)) best[g] = s;
  }
  return hasOther;
}
