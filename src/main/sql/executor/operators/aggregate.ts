import { compositeKey, hashKey, type HashKey, sortCompare } from '../../values/compare';
import { isNum } from '../../values/decimal';
import { ExactSum } from '../../values/exact-sum';
import { isNull, type Value } from '../../values/value';
import type { AggregateCall, BExpr } from '../../binder/bound';
import { compile, type CompileEnv, type Evaluator } from '../compile';
import { buildScaledNumbers, type Dictionary, SAFE_TOTAL, type ScaledNumbers } from '../column-views';
import { columnCodes } from '../column-codes';
import { type Frame, identityRows, IntBuffer } from '../frame';
import type { FrameStream } from '../frame-stream';
import { aggregateBatches } from './aggregate-batches';
import { addScaledByGroup } from './aggregate-calls';
import type { ColumnarTable } from '../table';

export interface Aggregated {
  /** Group keys, then one column per aggregate call; row g is group g. */
  slots: Value[][];
  groups: number;
  /** Per aggregated row, the GROUP BY positions its grouping set keeps (grouping sets only). */
  groupKeys?: ReadonlySet<number>[];
}

/** Assigns each frame row a group number; groups are numbered in order of first appearance. */
function assignGroups(frame: Frame, keys: Evaluator[]): { groupOf: Int32Array; firstRow: Int32Array } {
  const groupOf = new Int32Array(frame.length);
  const firstRow = new IntBuffer(64);
  if (keys.length === 0) {
    firstRow.push(0);
    return { groupOf, firstRow: firstRow.toArray() };
  }
  const ids = new Map<HashKey, number>();
  const single = keys.length === 1 ? keys[0]! : undefined;
  for (let r = 0; r < frame.length; r++) {
    // NULL keys form one group, as SQL's GROUP BY does.
    const key = single ? hashKey(single(r)) : compositeKey(keys.map((k) => k(r)));
    let id = ids.get(key);
    if (id === undefined) {
      id = firstRow.length;
      ids.set(key, id);
      firstRow.push(r);
    }
    groupOf[r] = id;
  }
  return { groupOf, firstRow: firstRow.toArray() };
}

/**
 * The same groups as assignGroups for one string column, from its dictionary codes: an array
 * lookup per row instead of a hash lookup. NULL and missing share code 0, as they share a group.
 */
function assignGroupsByCodes(
  frame: Frame,
  dictionary: Pick<Dictionary, 'codes' | 'size'>,
  idx: Int32Array,
): { groupOf: Int32Array; firstRow: Int32Array } {
  const groupOf = new Int32Array(frame.length);
  const firstRow = new IntBuffer(64);
  const groupOfCode = new Int32Array(dictionary.size).fill(-1);
  const codes = dictionary.codes;
  for (let r = 0; r < frame.length; r++) {
    const i = idx[r]!;
    const code = i < 0 ? 0 : codes[i]!;
    let id = groupOfCode[code]!;
    if (id < 0) {
      id = firstRow.length;
      groupOfCode[code] = id;
      firstRow.push(r);
    }
    groupOf[r] = id;
  }
  return { groupOf, firstRow: firstRow.toArray() };
}

/** A bare column of a table (no path into it), with the frame's row numbers for its table. */
interface ColumnRef {
  table: ColumnarTable;
  attr: string;
  idx: Int32Array;
}

function columnRef(e: BExpr | undefined, frame: Frame, env: CompileEnv): ColumnRef | undefined {
  if (e?.kind !== 'col' || e.path.length > 0) return undefined;
  const table = env.tables[e.binding];
  const idx = frame.idx[e.binding];
  if (!table || !idx || idx.length < frame.length) return undefined;
  return { table, attr: e.attr, idx };
}

/** What GROUP BY asks for: keys, aggregates, and for ROLLUP / CUBE / GROUPING SETS the key sets. */
export interface AggregateSpec {
  keys: BExpr[];
  calls: AggregateCall[];
  sets?: number[][];
}

/**
 * Hash aggregation. Keys and aggregates that typed arrays answer exactly are read a batch at a
 * time without the whole frame (aggregate-batches.ts); otherwise one pass over the frame finds
 * the groups, then one tight pass per aggregate. With grouping sets, each set is aggregated in
 * turn and its rows follow the previous set's; a key the set does not group by is NULL in its
 * rows, and `groupKeys` tells GROUPING() which keys each row kept.
 */
export function aggregate(
  rows: FrameStream,
  spec: AggregateSpec,
  env: CompileEnv,
  warn: (message: string) => void,
): Aggregated {
  const typed = aggregateBatches(rows, spec, env);
  if (typed) {
    typed.skipped.forEach((skipped, j) => {
      if (skipped > 0) warnSkipped(spec.calls[j]!, skipped, warn);
    });
    return typed.aggregated;
  }
  const frame = rows.frame();
  if (!spec.sets) return aggregateSet(frame, spec, undefined, env, warn);
  // Every set reads the same rows, so a warning about them would repeat once per set.
  const said = new Set<string>();
  const warnOnce = (message: string): void => {
    if (!said.has(message)) warn(message);
    said.add(message);
  };
  const parts = spec.sets.map((set) => aggregateSet(frame, spec, set, env, warnOnce));
  const slots = parts[0]!.slots.map((_, j) => parts.flatMap((part) => part.slots[j]!));
  const groupKeys = spec.sets.flatMap((set, i) =>
    Array<ReadonlySet<number>>(parts[i]!.groups).fill(new Set(set)),
  );
  return { slots, groups: groupKeys.length, groupKeys };
}

function aggregateSet(
  frame: Frame,
  spec: AggregateSpec,
  set: number[] | undefined,
  env: CompileEnv,
  warn: (message: string) => void,
): Aggregated {
  const grouped = spec.keys.map((_, i) => set === undefined || set.includes(i));
  const keyEvaluators = spec.keys.map((k, i) => (grouped[i] ? compile(k, env)(frame) : undefined));
  const groupedKeys = spec.keys.filter((_, i) => grouped[i]);
  const single = groupedKeys.length === 1 ? columnRef(groupedKeys[0], frame, env) : undefined;
  // Codes of any column (column-codes.ts), kept with its decoded copy: a hash pass once, not per statement.
  const dictionary = single && columnCodes(single.table, single.attr, frame.length);
  const { groupOf, firstRow } = dictionary
    ? assignGroupsByCodes(frame, dictionary, single.idx)
    : assignGroups(
        frame,
        keyEvaluators.filter((ev): ev is Evaluator => ev !== undefined),
      );
  const groups = grouped.some(Boolean) ? firstRow.length : 1;
  const slots: Value[][] = keyEvaluators.map((ev) =>
    ev ? Array.from(firstRow, (r) => ev(r)) : new Array<Value>(groups).fill(null),
  );
  for (const call of spec.calls) {
    const arg = call.arg ? compile(call.arg, env)(frame) : undefined;
    const sums = { groupOf, groups, frame, column: columnRef(call.arg, frame, env) };
    slots.push(accumulate(call, arg, sums, warn));
  }
  return { slots, groups };
}

interface Grouping {
  groupOf: Int32Array;
  groups: number;
  frame: Frame;
  /** Set when the argument is a bare column, whose scaled numbers SUM/AVG can read. */
  column?: ColumnRef;
}

function accumulate(
  call: AggregateCall,
  arg: Evaluator | undefined,
  grouping: Grouping,
  warn: (message: string) => void,
): Value[] {
  const { groupOf, groups } = grouping;
  const rows = grouping.frame.length;
  const seen = call.distinct ? Array.from({ length: groups }, () => new Set<HashKey>()) : undefined;
  const admit = (g: number, v: Value): boolean => {
    if (!seen) return true;
    const key = hashKey(v);
    if (seen[g]!.has(key)) return false;
    seen[g]!.add(key);
    return true;
  };
  if (call.name === 'COUNT') {
    const counts = new Array<number>(groups).fill(0);
    if (!arg) for (let r = 0; r < rows; r++) counts[groupOf[r]!]! += 1;
    else {
      for (let r = 0; r < rows; r++) {
        const v = arg(r);
        if (!isNull(v) && admit(groupOf[r]!, v)) counts[groupOf[r]!]! += 1;
      }
    }
    return counts;
  }
  if (call.name === 'SUM' || call.name === 'AVG') {
    const fast = seen ? undefined : scaledSums(arg!, grouping);
    if (fast) {
      if (fast.skipped > 0) warnSkipped(call, fast.skipped, warn);
      return Array.from(fast.acc, (acc, g) => {
        const count = fast.counts[g]!;
        if (count === 0) return null;
        const sum = ExactSum.fromScaled(acc, fast.scale, count);
        return call.name === 'SUM' ? sum.total() : sum.average();
      });
    }
    const sums = new Array<ExactSum | undefined>(groups);
    let skipped = 0;
    for (let r = 0; r < rows; r++) {
      const v = arg!(r);
      if (isNull(v)) continue;
      if (!isNum(v)) {
        skipped += 1;
        continue;
      }
      const g = groupOf[r]!;
      if (seen && !admit(g, v)) continue;
      (sums[g] ??= new ExactSum()).add(v);
    }
    if (skipped > 0) warnSkipped(call, skipped, warn);
    return Array.from(sums, (s) => (s ? (call.name === 'SUM' ? s.total() : s.average()) : null));
  }
  // MIN/MAX prefer numbers: a column that is a number in most items and a string in a few
  // should give the largest number, not the "largest" string. Other types count only when a
  // group has no numbers, and the mix is reported.
  const bestNumber: Value[] = new Array<Value>(groups).fill(null);
  const bestOther: Value[] = new Array<Value>(groups).fill(null);
  const sign = call.name === 'MIN' ? -1 : 1;
  for (let r = 0; r < rows; r++) {
    const v = arg!(r);
    if (isNull(v)) continue;
    const g = groupOf[r]!;
    const best = isNum(v) ? bestNumber : bestOther;
    const current = best[g];
    if (current === null || sortCompare(v, current) * sign > 0) best[g] = v;
  }
  let mixed = 0;
  const result = bestNumber.map((n, g) => {
    if (n !== null && bestOther[g] !== null) mixed += 1;
    return n ?? bestOther[g]!;
  });
  if (mixed > 0)
    warn(
      `${call.text} compared only the numbers in ${plural(mixed, 'group', 'groups')} that also have other types.`,
    );
  return result;
}

export function warnSkipped(call: AggregateCall, skipped: number, warn: (message: string) => void): void {
  warn(
    `${call.text} skipped ${plural(skipped, 'value that is not a number', 'values that are not numbers')}.`,
  );
}

interface ScaledSums {
  acc: Float64Array;
  counts: Float64Array;
  scale: number;
  skipped: number;
}

/**
 * SUM/AVG of every group at once when all the numbers are doubles with few decimals (prices,
 * counts, quantities): each is an integer scaled by one common 10^scale (column-views.ts), and
 * the groups' integers add up in a Float64Array, exact because the magnitudes added stay under
 * SAFE_TOTAL (< 2^53). A bare column's scaled integers are built once and kept with the decoded
 * column, so the statement adds typed arrays with no closure call or rounding per row; any
 * other argument is evaluated and scaled here. Undefined when a value would not fit (a BigInt
 * decimal, >15 decimals, a total too large): ExactSum then adds them one by one and spills to
 * BigInt where it must.
 */
function scaledSums(arg: Evaluator, grouping: Grouping): ScaledSums | undefined {
  const { column, frame } = grouping;
  const kept = column?.table.scaledNumbers(column.attr);
  // The column's common scale may be wider than these rows need, so a total too large for it
  // is tried again at the scale of these rows alone.
  const fast = kept ? addScaled(kept, column!.idx, grouping) : undefined;
  if (fast) return fast;
  const numbers = buildScaledNumbers(
    Array.from({ length: frame.length }, (_, r) => arg(r)),
    frame.length,
  );
  return numbers ? addScaled(numbers, undefined, grouping) : undefined;
}

/** Adds row r's scaled integer (row idx[r] of the numbers, or r itself) to its group. */
function addScaled(
  numbers: ScaledNumbers,
  idx: Int32Array | undefined,
  { frame, groupOf, groups }: Grouping,
): ScaledSums | undefined {
  const acc = new Float64Array(groups);
  const counts = new Float64Array(groups);
  // The batched path's loop (aggregate-calls.ts), over the whole frame as one batch.
  const tally = new Float64Array(2);
  const rows = idx ?? identityRows(frame.length);
  addScaledByGroup(rows, frame.length, groupOf, numbers.scaled, numbers.kind, acc, counts, tally);
  // tally: the magnitudes added, then the values that are not numbers.
  const skipped = tally[1]!;
  return tally[0]! < SAFE_TOTAL ? { acc, counts, scale: numbers.scale, skipped } : undefined;
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
