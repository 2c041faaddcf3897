import { POW10 } from '../../values/arith';
import { ExactSum } from '../../values/exact-sum';
import { isNull, type Value } from '../../values/value';
import type { AggregateCall, BExpr } from '../../binder/bound';
import { compile, type CompileEnv } from '../compile';
import { NOT_NUMBER, SAFE_TOTAL, type ScaledNumbers } from '../column-views';
import { BATCH_ROWS, type FrameStream } from '../frame-stream';
import { emptyIdx, type Frame, IntBuffer } from '../frame';
import type { Aggregated, AggregateSpec } from './aggregate';

/**
 * GROUP BY read a batch at a time (frame-stream.ts), every group key and aggregate in typed
 * arrays: a group is found from the keys' dictionary codes (an array lookup per row, or a Map
 * of combined codes when several keys make too many combinations for an array), and COUNT,
 * SUM, AVG, MIN and MAX add into per-group arrays from the columns' scaled integers
 * (column-views.ts). Nothing per row is allocated and no row is boxed; the rows of a join are
 * never all written out.
 *
 * It answers only what it answers exactly, the same as the general path (aggregate.ts) would:
 * keys that are bare string columns, and COUNT(*), COUNT(col), SUM/AVG/MIN/MAX(col) of bare
 * columns whose numbers fit a double's integers. Anything else — an expression, DISTINCT,
 * grouping sets, a BigInt decimal, a total past SAFE_TOTAL, MIN/MAX over numbers mixed with
 * other types — is undefined, and the caller runs the general path over the whole frame.
 */
export function aggregateBatches(
  rows: FrameStream,
  spec: AggregateSpec,
  env: CompileEnv,
): { aggregated: Aggregated; skipped: number[] } | undefined {
  if (spec.sets || spec.calls.some((c) => c.distinct)) return undefined;
  const keys: KeyCodes[] = [];
  for (const key of spec.keys) {
    const codes = keyCodes(key, env);
    if (!codes) return undefined;
    keys.push(codes);
  }
  const groups = Groups.of(keys, env.tables.length);
  if (!groups) return undefined;
  const calls: TypedCall[] = [];
  for (const call of spec.calls) {
    const typed = call.name === 'COUNT' && !call.arg ? new CountRows(groups) : typedCall(call, env);
    if (!typed) return undefined;
    calls.push(typed);
  }
  rows.batches((batch) => {
    const groupOf = groups.assign(batch);
    for (const call of calls) call.add(batch, groupOf, groups.count);
  });
  const finished: Value[][] = [];
  for (const call of calls) {
    const values = call.finish(groups.count);
    if (!values) return undefined;
    finished.push(values);
  }
  const slots = [...groups.keyValues(spec.keys, env), ...finished];
  return { aggregated: { slots, groups: groups.count }, skipped: calls.map((c) => c.skipped) };
}

/** A GROUP BY key that is a bare string column held as dictionary codes (0: NULL or missing). */
interface KeyCodes {
  binding: number;
  codes: Int32Array;
  size: number;
}

function bareColumn(e: BExpr | undefined): { binding: number; attr: string } | undefined {
  return e?.kind === 'col' && e.path.length === 0 ? e : undefined;
}

function keyCodes(key: BExpr, env: CompileEnv): KeyCodes | undefined {
  const column = bareColumn(key);
  if (!column) return undefined;
  const dictionary = env.tables[column.binding]?.dictionary(column.attr);
  return dictionary && { binding: column.binding, codes: dictionary.codes, size: dictionary.size };
}

/** Combinations of key codes up to this many are looked up in an array, more in a Map. */
const ARRAY_GROUPS = 1 << 20;

/**
 * Group numbers in order of first appearance (as the general path numbers them), from the keys'
 * codes combined into one number; and each group's first row per binding, which the keys'
 * values are read from at the end.
 */
class Groups {
  count = 0;
  /** Rows per group: COUNT(*) without a pass of its own. */
  sizes: Float64Array = new Float64Array(16);
  private readonly groupOf = new Int32Array(BATCH_ROWS);
  private readonly firstRows: (IntBuffer | undefined)[];

  private constructor(
    private readonly keys: KeyCodes[],
    bindingCount: number,
    private readonly byArray: Int32Array | undefined,
    private readonly byMap: Map<number, number> | undefined,
  ) {
    this.firstRows = Array.from({ length: bindingCount }, (_, b) =>
      keys.some((k) => k.binding === b) ? new IntBuffer(64) : undefined,
    );
    if (keys.length === 0) this.count = 1;
  }

  static of(keys: KeyCodes[], bindingCount: number): Groups | undefined {
    const combinations = keys.reduce((product, k) => product * k.size, 1);
    if (keys.length === 0) return new Groups(keys, bindingCount, undefined, undefined);
    if (combinations <= ARRAY_GROUPS)
      return new Groups(keys, bindingCount, new Int32Array(combinations).fill(-1), undefined);
    // Beyond 2^53 two combinations could share a number.
    if (combinations > Number.MAX_SAFE_INTEGER) return undefined;
    return new Groups(keys, bindingCount, undefined, new Map());
  }

  /** The batch rows' group numbers (valid for batch.length rows until the next call). */
  assign(batch: Frame): Int32Array {
    const { groupOf } = this;
    if (batch.length > groupOf.length) throw new RangeError('batch larger than BATCH_ROWS');
    if (this.keys.length === 0) {
      groupOf.fill(0, 0, batch.length);
      this.sizes[0]! += batch.length;
      return groupOf;
    }
    const byArray = this.byArray;
    if (this.keys.length === 1 && byArray) {
      const { binding, codes } = this.keys[0]!;
      const rows = batch.idx[binding]!;
      // The kernel stops at a code with no group yet; the group is made here and it goes on.
      for (let r = 0; r < batch.length; r++) {
        r = groupsByCode(rows, r, batch.length, codes, byArray, groupOf, this.sizes);
        if (r === batch.length) break;
        const i = rows[r]!;
        const code = i < 0 ? 0 : codes[i]!;
        const g = (byArray[code] = this.newGroup(batch, r));
        groupOf[r] = g;
        this.sizes[g]! += 1;
      }
      return groupOf;
    }
    for (let r = 0; r < batch.length; r++) {
      let combined = 0;
      for (let k = this.keys.length - 1; k >= 0; k--) {
        const { binding, codes, size } = this.keys[k]!;
        const i = batch.idx[binding]![r]!;
        combined = combined * size + (i < 0 ? 0 : codes[i]!);
      }
      let g = byArray ? byArray[combined]! : (this.byMap!.get(combined) ?? -1);
      if (g < 0) {
        g = this.newGroup(batch, r);
        if (byArray) byArray[combined] = g;
        else this.byMap!.set(combined, g);
      }
      groupOf[r] = g;
      this.sizes[g]! += 1;
    }
    return groupOf;
  }

  private newGroup(batch: Frame, r: number): number {
    for (let b = 0; b < this.firstRows.length; b++) this.firstRows[b]?.push(batch.idx[b]![r]!);
    this.sizes = grown(this.sizes, this.count + 1);
    return this.count++;
  }

  /** Each key's value per group, read from the group's first row as the general path reads it. */
  keyValues(keys: BExpr[], env: CompileEnv): Value[][] {
    const firsts: Frame = {
      length: this.keys.length === 0 ? 0 : this.count,
      idx: this.firstRows.map((rows) => rows?.toArray() ?? emptyIdx()),
    };
    return keys.map((key) => {
      const read = compile(key, env)(firsts);
      return Array.from({ length: firsts.length }, (_, g) => read(g));
    });
  }
}

/**
 * Group numbers of rows[from …] by one key's codes, counting each group's rows, up to the first
 * row whose code has no group yet (returned; `length` when there is none). The loops that run
 * per row are functions of typed arrays and numbers on their own, like this one: V8 optimizes
 * them once, on the first statement, and no later statement's objects change what they see.
 */
function groupsByCode(
  rows: Int32Array,
  from: number,
  length: number,
  codes: Int32Array,
  byCode: Int32Array,
  groupOf: Int32Array,
  sizes: Float64Array,
): number {
  for (let r = from; r < length; r++) {
    const i = rows[r]!;
    const g = byCode[i < 0 ? 0 : codes[i]!]!;
    if (g < 0) return r;
    groupOf[r] = g;
    sizes[g]! += 1;
  }
  return length;
}

/** One aggregate call over typed arrays: `add` per batch, `finish` once (undefined: not exact). */
interface TypedCall {
  add(batch: Frame, groupOf: Int32Array, groups: number): void;
  finish(groups: number): Value[] | undefined;
  /** Values that were not numbers, which SUM and AVG skip (the caller warns). */
  skipped: number;
}

function typedCall(call: AggregateCall, env: CompileEnv): TypedCall | undefined {
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
function grown(array: Float64Array, groups: number, fill = 0): Float64Array {
  if (groups <= array.length) return array;
  const next = new Float64Array(Math.max(groups, array.length * 2)).fill(fill);
  next.set(array);
  return next;
}

/** COUNT(*): the rows Groups counted as it assigned them. */
class CountRows implements TypedCall {
  skipped = 0;

  constructor(private readonly groups: Groups) {}

  add(): void {}

  finish(groups: number): Value[] {
    return Array.from(this.groups.sizes.subarray(0, groups));
  }
}

class CountPresent implements TypedCall {
  skipped = 0;
  private counts: Float64Array = new Float64Array(16);

  constructor(
    private readonly binding: number,
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
    private readonly binding: number,
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
    const p = POW10[scale]!;
    const isSum = this.name === 'SUM';
    const out = new Array<Value>(groups);
    for (let g = 0; g < groups; g++) {
      const count = this.counts[g] ?? 0;
      const acc = this.sums[g]!;
      // ExactSum.total's own first case, without an ExactSum per group.
      if (count === 0) out[g] = null;
      else if (isSum && acc < 1e15 && acc > -1e15) out[g] = acc / p + 0;
      else {
        const sum = ExactSum.fromScaled(acc, scale, count);
        out[g] = isSum ? sum.total() : sum.average();
      }
    }
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
    private readonly binding: number,
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

const MAGNITUDE = 0;
const SKIPPED = 1;

/** SUM/AVG's per-batch loop: scaled integers added per group; tally gathers MAGNITUDE and SKIPPED. */
function addScaledByGroup(
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
