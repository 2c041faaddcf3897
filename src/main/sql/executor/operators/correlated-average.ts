import type { BExpr, BoundSelect } from '../../binder/bound';
import { NOT_NUMBER, SAFE_TOTAL } from '../column-views';
import { columnCodes } from '../column-codes';
import type { CompileEnv } from '../compile';
import { decorrelated } from '../decorrelate';
import { type Frame, selectRows } from '../frame';
import type { ColumnarTable } from '../table';

/**
 * `x > (SELECT AVG(p.y) FROM t p WHERE p.k = o.k)`, the correlated comparison with a group's
 * average, answered the way a person would write it over columns: per code of `k`, the count
 * and the sum of `y` as scaled integers, then one pass over the outer rows comparing
 * `x · count` with `sum`. No AVG is built per group, no Decimal, no closure chain per row
 * (column → per-code answer → sqlCompare was ~40% of the statement; the decorrelated AVG's
 * Decimal per group ~20%: docs/PERFORMANCE.md).
 *
 * Exact, or not taken: x and y are the same table's scaled-integer columns of one scale (no
 * BigInt decimals), the correlation is the outer row's own `k` column of the subquery's table
 * (so the codes are shared), `k` holds only strings, and every product and sum stays under
 * SAFE_TOTAL, so doubles hold them exactly. A value that is not a number (AVG skips it with a
 * warning; the comparison orders no string with a number), mixed scales, another table, NULL
 * handling that is not "the row is dropped" (the condition is one of WHERE's AND-ed ones, where
 * NULL and FALSE both drop the row) — all go back to the general path, which is unchanged.
 */

/** The subquery's rows after its own conditions (an entity view's, others), in its table. */
export type InnerRows = (query: BoundSelect) => { table: ColumnarTable; rows: Int32Array };

type Col = Extract<BExpr, { kind: 'col' }>;
type Op = '<' | '<=' | '>' | '>=' | '=' | '<>';

// Module constants read in the loops: an imported binding is a property read per use where
// modules are compiled to CommonJS (tsx, vitest), measured as a fifth of the loops' time.
const OTHER = NOT_NUMBER;
const MAX = SAFE_TOTAL;

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
  const { count, sum } = tallies(codes.size);
  // Compared here, not after countAndSum's loop: a comparison the first run reaches only after
  // the loop has been compiled on the stack throws that code away (`--trace-deopt`: insufficient
  // type feedback for compare operation).
  if (!(countAndSum(inner.rows, codes.codes, y.scaled, y.kind, count, sum) <= MAX)) return undefined;
  // Code 0 (a NULL or missing key) was tallied with the others to spare the loop a test; `p.k =
  // o.k` never holds for it, so its group is emptied, and compareRows drops its rows as a
  // group's with no numbers (AVG of none is NULL).
  count[0] = 0;
  sum[0] = 0;
  // A frame of the one binding (the common case: FROM a view, WHERE this) is answered as its
  // table rows directly, not as frame rows selected in another pass.
  const isOneBinding = frame.idx.every((idx, b) => b === shape.outer.binding || idx.length === 0);
  const kept = new Int32Array(frame.length);
  const op = OPS.indexOf(shape.op);
  const n =
    isOneBinding && outerIdx === paramIdx
      ? compareTableRows(frame.length, outerIdx, codes.codes, x.scaled, x.kind, count, sum, op, kept)
      : compareRows(
          frame.length,
          outerIdx,
          paramIdx,
          codes.codes,
          x.scaled,
          x.kind,
          count,
          sum,
          op,
          kept,
          isOneBinding ? 1 : 0,
        );
  if (n < 0) return undefined;
  const rows = kept.subarray(0, n);
  if (!isOneBinding) return selectRows(frame, rows);
  const idx = frame.idx.map((column, b) => (b === shape.outer.binding ? rows : column));
  return { length: n, idx };
}

/**
 * Per code: how many numbers, and their scaled sum. Answers the magnitudes added, which must stay
 * under MAX for the sums to be exact; Infinity when a value is not a number (the general path then
 * answers both).
 */
function countAndSum(
  rows: Int32Array,
  codes: Int32Array,
  scaled: Float64Array,
  kind: Uint8Array,
  count: Float64Array,
  sum: Float64Array,
): number {
  let magnitude = 0;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const what = kind[i]!;
    // NULL and missing values are not averaged. A NULL or missing key (code 0) is tallied too:
    // the caller empties its group, and its magnitude only makes the bound stricter.
    if (what !== 1) {
      if (what === OTHER) return Infinity;
      continue;
    }
    const c = codes[i]!;
    const v = scaled[i]!;
    count[c]! += 1;
    sum[c]! += v;
    magnitude += v < 0 ? -v : v;
  }
  return magnitude;
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

/** `left OPS[op] right`; small enough that V8 inlines it into both loops. */
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
            : left !== right;
}

/**
 * The rows where `x op sum / count` holds, compared as `x · count op sum`, written to `kept`
 * (frame rows, or with `asTableRows` the outer table's rows); answers how many. A row whose x or
 * key is NULL or missing, or whose key has no numbers (AVG of none is NULL), is dropped. -1 when
 * an x is not a number or a product could leave a double's integers.
 */
function compareRows(
  length: number,
  outerIdx: Int32Array,
  paramIdx: Int32Array,
  codes: Int32Array,
  scaled: Float64Array,
  kind: Uint8Array,
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
    const what = kind[i]!;
    if (what !== 1) {
      if (what === OTHER) return -1;
      continue;
    }
    const c = codes[j]!;
    const rows = count[c]!;
    if (rows === 0) continue;
    const left = scaled[i]! * rows;
    if (left > MAX || left < -MAX) return -1;
    const right = sum[c]!;
    const holds = compares(op, left, right);
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
 * compareRows for a frame of one binding whose outer value and key are the same row's (`o.x >
 * (… p.k = o.k)`): one row number read per row, and the table row kept. Its own function with
 * nothing after the loop, as compareRows, so neither deoptimises the other.
 */
function compareTableRows(
  length: number,
  tableRows: Int32Array,
  codes: Int32Array,
  scaled: Float64Array,
  kind: Uint8Array,
  count: Float64Array,
  sum: Float64Array,
  op: number,
  kept: Int32Array,
): number {
  let n = 0;
  for (let r = 0; r < length; r++) {
    const i = tableRows[r]!;
    if (i < 0) continue;
    const what = kind[i]!;
    if (what !== 1) {
      if (what === OTHER) return -1;
      continue;
    }
    const c = codes[i]!;
    const rows = count[c]!;
    if (rows === 0) continue;
    const left = scaled[i]! * rows;
    if (left > MAX || left < -MAX) return -1;
    const right = sum[c]!;
    const holds = compares(op, left, right);
    // As in compareRows: no branch on the comparison.
    kept[n] = i;
    n += +holds;
  }
  return n;
}
