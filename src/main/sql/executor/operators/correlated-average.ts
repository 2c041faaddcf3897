import type { BExpr, BoundSelect } from '../../binder/bound';
import { SAFE_TOTAL } from '../column-views';
import { columnCodes } from '../column-codes';
import type { CompileEnv } from '../compile';
import { decorrelated } from '../decorrelate';
import { type Frame, selectRows } from '../frame';
import type { ColumnarTable } from '../table';
import { valuesOf } from './aggregate-scan-loops';

/**
 * `x > (SELECT AVG(p.y) FROM t p WHERE p.k = o.k)`, the correlated comparison with a group's
 * average, answered the way a person would write it over columns: per code of `k`, the count
 * and the sum of `y` as scaled integers, then one pass over the outer rows comparing
 * `x · count` with `sum`. No AVG is built per group, no Decimal, no closure chain per row
 * (column → per-code answer → sqlCompare was ~40% of the statement; the decorrelated AVG's
 * Decimal per group ~20%: docs/PERFORMANCE.md).
 *
 * Exact, or not taken, decided once per statement from the columns, never per row: x and y are
 * the same table's scaled-integer columns of one scale (no BigInt decimals), the correlation is
 * the outer row's own `k` column of the subquery's table (so the codes are shared), `k` holds
 * only strings, neither column holds a value that is not a number (AVG skips it with a warning;
 * the comparison orders no string with a number), and the largest |y| times the rows summed,
 * and the largest |x| times the largest group, stay under SAFE_TOTAL, so doubles hold every sum
 * and product exactly. Anything else (mixed scales, another table, amounts that could add up
 * past 2^53, text anywhere in either column, NULL handling that is not "the row is dropped": the
 * condition is one of WHERE's AND-ed ones, where NULL and FALSE both drop the row) goes back to
 * the general path, which is unchanged.
 */

/** The subquery's rows after its own conditions (an entity view's, others), in its table. */
export type InnerRows = (query: BoundSelect) => { table: ColumnarTable; rows: Int32Array };

type Col = Extract<BExpr, { kind: 'col' }>;
type Op = '<' | '<=' | '>' | '>=' | '=' | '<>';

const FLIPPED: Record<Op, Op> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };

interface Shape {
  outer: Col;
  /** The outer row's value the subquery is correlated by. */
  param: Col;
  op: Op;
  query: BoundSelect;
  key: Col;
  averaged: Col;
}

const isPlainCol = (e: BExpr | undefined): e is Col => e?.kind === 'col' && e.path.length === 0;

/** `col op scalar(AVG)` or `scalar(AVG) op col`, with the subquery's rewrite checked. */
function shapeOf(e: BExpr): Shape | undefined {
  if (e.kind !== 'binary' || !(e.op in FLIPPED)) return undefined;
  const [outer, sub, op] =
    e.right.kind === 'scalar' ? [e.left, e.right, e.op as Op] : [e.right, e.left, FLIPPED[e.op as Op]];
  if (!isPlainCol(outer) || sub.kind !== 'scalar' || sub.params.length !== 1) return undefined;
  const param = sub.params[0];
  if (!isPlainCol(param)) return undefined;
  const rewrite = decorrelated(sub.query, 'scalar', 1);
  if (!rewrite) return undefined;
  const query = rewrite.query;
  const [binding] = query.bindings;
  const calls = query.aggregate?.calls ?? [];
  const [call] = calls;
  const key = query.aggregate?.keys[0];
  const answer = query.outputs[1];
  if (
    query.bindings.length !== 1 ||
    binding!.after.length > 0 ||
    query.from?.kind !== 'binding' ||
    calls.length !== 1 ||
    call!.name !== 'AVG' ||
    call!.distinct ||
    !isPlainCol(call!.arg) ||
    !isPlainCol(key) ||
    answer?.kind !== 'expr' ||
    answer.expr.kind !== 'slot' ||
    answer.expr.index !== 1
  )
    return undefined;
  return { outer, param, op, query, key, averaged: call!.arg };
}

/**
 * The conditions of this shape that could be answered exactly, applied to `frame`; the rest
 * (and any that could not, after all) are left for the general filter.
 */
export function filterByAverages(
  frame: Frame,
  conditions: BExpr[],
  env: CompileEnv,
  innerRows: InnerRows,
): { frame: Frame; rest: BExpr[] } {
  if (env.slots) return { frame, rest: conditions };
  let narrowed = frame;
  const rest: BExpr[] = [];
  for (const condition of conditions) {
    const shape = shapeOf(condition);
    const kept = shape && aboveAverage(narrowed, shape, env, innerRows);
    if (kept) narrowed = kept;
    else rest.push(condition);
  }
  return { frame: narrowed, rest };
}

function aboveAverage(frame: Frame, shape: Shape, env: CompileEnv, innerRows: InnerRows): Frame | undefined {
  const table = env.tables[shape.param.binding];
  const outerTable = env.tables[shape.outer.binding];
  const outerIdx = frame.idx[shape.outer.binding];
  const paramIdx = frame.idx[shape.param.binding];
  if (!table || !outerTable || !outerIdx || !paramIdx) return undefined;
  if (outerIdx.length < frame.length || paramIdx.length < frame.length) return undefined;
  if (shape.key.attr !== shape.param.attr) return undefined;
  const codes = columnCodes(table, shape.param.attr, frame.length);
  const x = outerTable.scaledNumbers(shape.outer.attr);
  if (!codes?.onlyStrings || !x) return undefined;
  const inner = innerRows(shape.query);
  // The codes are the outer table's: the subquery must read that same table.
  if (inner.table !== table) return undefined;
  const y = table.scaledNumbers(shape.averaged.attr);
  if (!y || y.scale !== x.scale) return undefined;
  // Exactness decided once per column, not per row: no text among the numbers (AVG skips it with
  // a warning, which the general path gives), and no sum of the rows read can pass SAFE_TOTAL, as GROUP
  // BY's loop decides (aggregate-scan.ts). Values as NaN where there is no number, kept per column.
  const xs = valuesOf(x);
  const ys = valuesOf(y);
  if (xs.others > 0 || ys.others > 0 || !(ys.largest * inner.rows.length < SAFE_TOTAL)) return undefined;
  const { count, sum } = tallies(codes.size);
  // A list the table keeps (every row, an entity view's) is walked as every row with the codes
  // read within it: the hand-written side's loop, no row number read per row.
  const innerCodes = table.codesWithin(inner.rows, codes.codes);
  if (innerCodes) tallyAll(innerCodes, ys.values, count, sum);
  else tallyRows(inner.rows, codes.codes, ys.values, count, sum);
  // Every product x · count under SAFE_TOTAL, decided from the largest x and the largest group.
  if (!(xs.largest * closeGroups(count, sum, codes.size) < SAFE_TOTAL)) return undefined;
  const op = OPS.indexOf(shape.op);
  // A frame of the one binding (the common case: FROM a view, WHERE this) is answered as its
  // table rows directly, not as frame rows selected in another pass.
  const isOneBinding = frame.idx.every((idx, b) => b === shape.outer.binding || idx.length === 0);
  const outerCodes =
    isOneBinding && outerIdx === paramIdx
      ? innerCodes && outerIdx === inner.rows
        ? innerCodes
        : table.codesWithin(outerIdx, codes.codes)
      : undefined;
  const kept = scratch(outerCodes ? outerCodes.length : frame.length);
  const n = outerCodes
    ? compareAll(outerCodes, xs.values, count, sum, op, kept)
    : compareRows(
        frame.length,
        outerIdx,
        paramIdx,
        codes.codes,
        xs.values,
        count,
        sum,
        op,
        kept,
        isOneBinding ? 1 : 0,
      );
  const rows = kept.slice(0, n);
  if (!isOneBinding) return selectRows(frame, rows);
  return { length: n, idx: frame.idx.map((column, b) => (b === shape.outer.binding ? rows : column)) };
}

/**
 * The kept rows' array, kept between statements (4 bytes a row of the largest table read) and
 * copied out at the size of the answer, not one as long as the table made and zeroed per
 * statement, mostly unused and held by the frame (measured ~1% of the one-table statement:
 * docs/PERFORMANCE.md, sqlcorr2). Safe to share for the same reason as `tallies`.
 */
let scratchKept = new Int32Array(0);

function scratch(length: number): Int32Array {
  if (scratchKept.length < length) scratchKept = new Int32Array(length);
  return scratchKept;
}

// The loops read NaN where a row has no number, and each comparison with NaN is false (`<>` is
// written as `<` or `>`): a NULL or missing value, a key with no numbers, a NULL key, all drop
// the row with no test of their own, as the hand-written side's loops test nothing but a code.

/**
 * Per code, over every row of the table (code 0 at a row outside the rows read): how many
 * numbers, and their scaled sum.
 */
function tallyAll(codes: Int32Array, values: Float64Array, count: Float64Array, sum: Float64Array): void {
  for (let i = 0; i < codes.length; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    const c = codes[i]!;
    count[c]! += 1;
    sum[c]! += v;
  }
}

/** tallyAll over listed rows the table does not keep (those the subquery's own conditions kept). */
function tallyRows(
  rows: Int32Array,
  codes: Int32Array,
  values: Float64Array,
  count: Float64Array,
  sum: Float64Array,
): void {
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const v = values[i]!;
    if (v !== v) continue;
    const c = codes[i]!;
    count[c]! += 1;
    sum[c]! += v;
  }
}

/**
 * A group with no numbers gets NaN for its sum, so no row of it is kept (AVG of none is NULL);
 * so does code 0 (a NULL or missing key, tallied with the others to spare the loop a test: `p.k
 * = o.k` never holds for it). Answers the largest count.
 */
function closeGroups(count: Float64Array, sum: Float64Array, size: number): number {
  count[0] = 0;
  let most = 0;
  for (let c = 0; c < size; c++) {
    const rows = count[c]!;
    if (rows === 0) sum[c] = NaN;
    else if (rows > most) most = rows;
  }
  return most;
}

/**
 * The per-code count and sum, zeroed, in arrays kept between statements: allocating two arrays of
 * the key's distinct values cost ~8% of the loops' time in a profile (docs/PERFORMANCE.md, sqlcorr). Safe to share: they are read only between here and the end of aboveAverage, which
 * runs no other statement. Kept up to KEPT_CODES codes (4 MB), so a worker does not hold a huge
 * key's arrays for good; a larger key allocates its own, as its loops dwarf that cost.
 */
const KEPT_CODES = 1 << 18;
let talliesKept = { count: new Float64Array(0), sum: new Float64Array(0) };

function tallies(size: number): { count: Float64Array; sum: Float64Array } {
  if (size > KEPT_CODES) return { count: new Float64Array(size), sum: new Float64Array(size) };
  if (talliesKept.count.length < size) {
    talliesKept = { count: new Float64Array(size), sum: new Float64Array(size) };
    return talliesKept;
  }
  const count = talliesKept.count.subarray(0, size);
  const sum = talliesKept.sum.subarray(0, size);
  count.fill(0);
  sum.fill(0);
  return { count, sum };
}

const OPS: readonly Op[] = ['<', '<=', '>', '>=', '=', '<>'];

/** `left OPS[op] right`, false when either is NaN; small enough that V8 inlines it into the loops. */
function compares(op: number, left: number, right: number): boolean {
  return op === 0
    ? left < right
    : op === 1
      ? left <= right
      : op === 2
        ? left > right
        : op === 3
          ? left >= right
          : op === 4
            ? left === right
            : left < right || left > right;
}

/**
 * The rows where `x op sum / count` holds, compared as `x · count op sum`, written to `kept`
 * (frame rows, or with `asTableRows` the outer table's rows); answers how many.
 */
function compareRows(
  length: number,
  outerIdx: Int32Array,
  paramIdx: Int32Array,
  codes: Int32Array,
  values: Float64Array,
  count: Float64Array,
  sum: Float64Array,
  op: number,
  kept: Int32Array,
  asTableRows: number,
): number {
  let n = 0;
  for (let r = 0; r < length; r++) {
    const i = outerIdx[r]!;
    const j = paramIdx[r]!;
    if (i < 0 || j < 0) continue;
    const c = codes[j]!;
    const holds = compares(op, values[i]! * count[c]!, sum[c]!);
    // Written always, counted when it holds: no branch decided by a row's side of its average,
    // which for rows in no particular order is a coin toss the CPU mispredicts half the time. On
    // such rows the loop took half the time; on the bench's rows, whose amounts follow a pattern
    // the predictor learns, ~8% longer (docs/PERFORMANCE.md, sqlcorr). kept[n] is inside: n ≤ r.
    kept[n] = asTableRows === 1 ? i : r;
    n += +holds;
  }
  return n;
}

/**
 * compareRows for a frame of one binding's rows that its table keeps (every row, an entity
 * view's): every row of the table walked, the codes read within the frame's rows (0 outside it,
 * whose group is empty, so those rows are never counted), no row number read at all. Its own
 * function with nothing after the loop, as each loop here, so none deoptimises another.
 */
function compareAll(
  codes: Int32Array,
  values: Float64Array,
  count: Float64Array,
  sum: Float64Array,
  op: number,
  kept: Int32Array,
): number {
  let n = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    const holds = compares(op, values[i]! * count[c]!, sum[c]!);
    kept[n] = i;
    n += +holds;
  }
  return n;
}
