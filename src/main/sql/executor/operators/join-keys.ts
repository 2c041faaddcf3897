import { hashKey, type HashKey } from '../../values/compare';
import { isNull, type Value } from '../../values/value';
import type { BExpr } from '../../binder/bound';
import type { CompileEnv } from '../compile';
import type { Frame, IntBuffer } from '../frame';
import type { CodedView, ColumnarTable } from '../table';

/**
 * Two key columns numbered together: equal values (by hashKey, the equality of the hash join)
 * get the same number on both sides, NULL and missing get -1. With the numbers, a join's build
 * and probe are array lookups per row instead of hashing a string per row. The numbering costs
 * one hash per distinct string of a coded column (a lookup per row after it) or one per row of
 * any other, and is kept while both columns' forms live, so the next statement joining the same
 * columns (the common case: a user refining one query) skips it.
 */
export interface KeyNumbering {
  left: Int32Array;
  right: Int32Array;
  /** Distinct non-NULL keys over both columns. */
  keys: number;
  leftRows: number;
  rightRows: number;
}

/**
 * Keyed by what each side's numbers were made from: a coded column's view or a decoded column
 * array. ColumnarTable hands out a new one when a column is decoded again, sealed or cooled
 * down, and the row counts catch a plain column that grew in place, so a kept numbering is never
 * read for data it was not built from. Weak, so a numbering goes with the column form that
 * coolDown drops.
 */
const kept = new WeakMap<object, WeakMap<object, KeyNumbering>>();

/**
 * A key column as it is held: a coded string column's codes (numbered once per distinct string,
 * then a lookup per row: no string hashed per row and nothing decoded), or its decoded values.
 */
interface KeyColumn {
  coded?: CodedView;
  values?: readonly Value[];
  rows: number;
  binding: number;
}

const sourceOf = (column: KeyColumn): object => column.coded ?? column.values!;

function numberColumn(column: KeyColumn, ids: Map<HashKey, number>): Int32Array {
  return column.coded
    ? numberCoded(column.coded, column.rows, ids)
    : numberValues(column.values!, column.rows, ids);
}

/** The number of one value: -1 for NULL and missing (NULL never equals anything, so it never joins). */
function idOf(v: Value, ids: Map<HashKey, number>): number {
  if (isNull(v)) return -1;
  const key = hashKey(v);
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size;
    ids.set(key, id);
  }
  return id;
}

function numberValues(column: readonly Value[], rows: number, ids: Map<HashKey, number>): Int32Array {
  const out = new Int32Array(rows);
  for (let i = 0; i < rows; i++) out[i] = idOf(column[i], ids);
  return out;
}

/** Each distinct string numbered by the same rule as a decoded value, then each row's code looked up. */
function numberCoded(coded: CodedView, rows: number, ids: Map<HashKey, number>): Int32Array {
  const numberOfCode = new Int32Array(coded.strings.length);
  for (let c = 0; c < numberOfCode.length; c++) numberOfCode[c] = idOf(coded.strings[c], ids);
  const out = new Int32Array(rows);
  numbersOfCodes(coded.codes, numberOfCode, rows, out);
  return out;
}

/** out[i] = numberOfCode[codes[i]]: a function of typed arrays on its own (see chainRows). */
function numbersOfCodes(
  codes: Uint8Array | Uint16Array | Int32Array,
  numberOfCode: Int32Array,
  rows: number,
  out: Int32Array,
): void {
  for (let i = 0; i < rows; i++) out[i] = numberOfCode[codes[i]!]!;
}

function numbering(left: KeyColumn, right: KeyColumn): KeyNumbering {
  const [leftSource, rightSource] = [sourceOf(left), sourceOf(right)];
  let byRight = kept.get(leftSource);
  const found = byRight?.get(rightSource);
  if (found && found.leftRows === left.rows && found.rightRows === right.rows) return found;
  const ids = new Map<HashKey, number>();
  const leftNumbers = numberColumn(left, ids);
  // A self-join on one column (two entity views of one table) numbers it once.
  const rightNumbers =
    leftSource === rightSource && left.rows === right.rows ? leftNumbers : numberColumn(right, ids);
  const made = {
    left: leftNumbers,
    right: rightNumbers,
    keys: ids.size,
    leftRows: left.rows,
    rightRows: right.rows,
  };
  if (!byRight) kept.set(leftSource, (byRight = new WeakMap()));
  byRight.set(rightSource, made);
  return made;
}

/** A bare top-level column (no path into it): the only key this path numbers. */
function keyColumn(e: BExpr, env: CompileEnv): KeyColumn | undefined {
  if (e.kind !== 'col' || e.path.length > 0) return undefined;
  const table: ColumnarTable | undefined = env.tables[e.binding];
  if (!table) return undefined;
  const coded = table.codedStrings(e.attr);
  if (coded) return { coded, rows: table.rowCount, binding: e.binding };
  const values = table.column(e.attr);
  return values && { values, rows: table.rowCount, binding: e.binding };
}

/**
 * The numbers of an equi-join's two bare key columns (`left`: the build side's, `right`: the
 * probe side's, per table row), kept as numberedIndex keeps them; undefined when a key is not a
 * bare column of a table.
 */
export function keyNumbers(buildKey: BExpr, probeKey: BExpr, env: CompileEnv): KeyNumbering | undefined {
  const buildColumn = keyColumn(buildKey, env);
  const probeColumn = keyColumn(probeKey, env);
  return buildColumn && probeColumn ? numbering(buildColumn, probeColumn) : undefined;
}

/**
 * A hash table of the build rows by key number: `head[k]` is the first build row (frame row) with
 * key k, `next[b]` the next after b, in ascending order; -1 ends a chain. `probeKey(p)` is probe
 * row p's key number, -1 for NULL or missing (which join nothing).
 */
export interface NumberedIndex {
  head: Int32Array;
  next: Int32Array;
  probeIdx: Int32Array;
  probeNumbers: Int32Array;
  /** No key number has two build rows: each probe row matches at most one. */
  isUnique: boolean;
}

/**
 * The index of an equi-join on one bare column of each side. Undefined when a key is not a bare
 * column (an expression, a path, a column no row has), for the general hash join.
 */
export function numberedIndex(
  build: Frame,
  probe: Frame,
  buildKey: BExpr,
  probeKey: BExpr,
  env: CompileEnv,
): NumberedIndex | undefined {
  const buildColumn = keyColumn(buildKey, env);
  const probeColumn = keyColumn(probeKey, env);
  if (!buildColumn || !probeColumn) return undefined;
  const buildIdx = build.idx[buildColumn.binding];
  const probeIdx = probe.idx[probeColumn.binding];
  if (!buildIdx || buildIdx.length < build.length || !probeIdx || probeIdx.length < probe.length)
    return undefined;
  const numbers = numbering(buildColumn, probeColumn);
  const head = new Int32Array(numbers.keys).fill(-1);
  const next = new Int32Array(build.length);
  const isUnique = chainRows(buildIdx, build.length, numbers.left, head, next);
  return { head, next, probeIdx, probeNumbers: numbers.right, isUnique };
}

/**
 * The build rows chained by key number. A function of typed arrays on its own: inlined in
 * numberedIndex, its loop was optimized on stack during a first call, before the code after it
 * had run, and every later call left that code at its end (a deoptimization per statement).
 */
function chainRows(
  buildIdx: Int32Array,
  rows: number,
  buildNumbers: Int32Array,
  head: Int32Array,
  next: Int32Array,
): boolean {
  let isUnique = true;
  for (let r = rows - 1; r >= 0; r--) {
    const i = buildIdx[r]!;
    const k = i < 0 ? -1 : buildNumbers[i]!;
    if (k < 0) {
      next[r] = -1;
      continue;
    }
    const first = head[k]!;
    if (first >= 0) isUnique = false;
    next[r] = first;
    head[k] = r;
  }
  return isUnique;
}

/**
 * The pairs of an equi-join on one column of each side, in the order the hash join gives them:
 * probe rows in order, each with its matching build rows in order. False when numberedIndex
 * has no index for these keys.
 */
export function joinByNumberedKeys(
  build: Frame,
  probe: Frame,
  buildKey: BExpr,
  probeKey: BExpr,
  env: CompileEnv,
  buildOut: IntBuffer,
  probeOut: IntBuffer,
): boolean {
  const index = numberedIndex(build, probe, buildKey, probeKey, env);
  if (!index) return false;
  const { head, next, probeIdx, probeNumbers } = index;
  for (let p = 0; p < probe.length; p++) {
    const i = probeIdx[p]!;
    const k = i < 0 ? -1 : probeNumbers[i]!;
    if (k < 0) continue;
    for (let b = head[k]!; b >= 0; b = next[b]!) {
      probeOut.push(p);
      buildOut.push(b);
    }
  }
  return true;
}
