import { compareStrings, compositeKey, hashKey, type HashKey, sortCompare } from '../../values/compare';
import { type ColumnCodes, columnCodes, hashCodes } from '../column-codes';
import { isNull } from '../../values/value';
import type { BExpr, WindowCall } from '../../binder/bound';
import { gatherCodes, NOT_NUMBER } from '../column-views';
import { compile, type CompileEnv, type Evaluator } from '../compile';
import type { RowReader } from '../table';
import { type Frame, identityRows } from '../frame';
import { sortRows } from './sort';

/**
 * A window's frame rows in window order: partition after partition (`starts[p]` is where
 * partition p begins, `starts[count]` the total), each sorted by the window's ORDER BY with
 * ties in input order. `same(a, b)` tells whether frame rows a and b are peers (equal ORDER BY
 * values), for RANK and RANGE frames.
 */
export interface WindowOrder {
  rows: Int32Array;
  starts: Int32Array;
  same: (a: number, b: number) => boolean;
}

/**
 * The typed path reads a plain column's codes (PARTITION BY: column-codes.ts) and scaled integers
 * (ORDER BY) and sorts small integers: no boxed value is compared. It covers one partition key
 * and one number order key, the shape of "top N per user"; anything else (several keys,
 * expressions, a column that mixes numbers with other types or holds BigInt decimals) takes the
 * general path, which compares values.
 *
 * `keep`: only the first `keep` rows of each partition are read (QUALIFY `ROW_NUMBER() … <= k`,
 * see window.ts `rowsKept`); the typed path then keeps the best `keep` rows of each partition in
 * one pass instead of sorting every partition, and leaves the other rows out of `rows`.
 */
export function windowOrder(call: WindowCall, frame: Frame, env: CompileEnv, keep?: number): WindowOrder {
  return typedOrder(call, frame, env, keep) ?? generalOrder(call, frame, env);
}

function plainColumn(e: BExpr, env: CompileEnv, frame: Frame) {
  if (e.kind !== 'col' || e.path.length > 0) return undefined;
  const idx = frame.idx[e.binding];
  const table = env.tables[e.binding];
  return idx && table && idx.length === frame.length ? { table, attr: e.attr, idx } : undefined;
}

/** One partition code per frame row (0: NULL or missing), and how many codes there are. */
export function partitionCodes(call: WindowCall, frame: Frame, env: CompileEnv): ColumnCodes | undefined {
  if (call.partitionBy.length === 0)
    return { codes: new Int32Array(frame.length), size: 1, onlyStrings: true };
  if (call.partitionBy.length > 1) return undefined;
  const column = plainColumn(call.partitionBy[0]!, env, frame);
  if (!column) return undefined;
  const { idx } = column;
  const coded = columnCodes(column.table, column.attr, frame.length);
  if (coded) return { ...coded, codes: gatherCodes(idx, coded.codes, new Int32Array(frame.length)) };
  // A few rows of a large column: code just those values.
  const read = column.table.reader(column.attr);
  if (!read) return undefined;
  return hashCodes(frame.length, (r) => (idx[r]! < 0 ? undefined : read(idx[r]!)));
}

/**
 * A ROW_NUMBER's partition codes and order numbers as their columns hold them, per table row,
 * read through the one binding's frame rows (`idx`) in the selection's own loop (window-top.ts
 * `keepStored`): nothing is gathered per frame row first. Undefined unless both are plain
 * columns of one binding, the partition column has codes and the order column scaled integers
 * (a column of strings orders by `orderKeys`' text keys instead).
 */
export interface StoredKeys {
  /** The ORDER BY column. */
  binding: number;
  attr: string;
  idx: Int32Array;
  codes: Int32Array;
  /** Codes in use, 0 (NULL and missing) included. */
  size: number;
  kind: Uint8Array;
  scaled: Float64Array;
  scale: number;
  /** -1 for DESC. */
  sign: number;
  /** The key of a row with no number: before every number or after, and finite. */
  nullKey: number;
}

export function storedKeys(call: WindowCall, frame: Frame, env: CompileEnv): StoredKeys | undefined {
  if (call.partitionBy.length !== 1 || call.orderBy.length !== 1) return undefined;
  const spec = call.orderBy[0]!;
  const partition = plainColumn(call.partitionBy[0]!, env, frame);
  const order = plainColumn(spec.expr, env, frame);
  if (!partition || !order || partition.idx !== order.idx || spec.expr.kind !== 'col') return undefined;
  const { table, attr } = order;
  if (!table.holdsNumbers(attr) && table.dictionary(attr)) return undefined;
  const coded = columnCodes(partition.table, partition.attr, frame.length);
  const numbers = coded && table.scaledNumbers(attr);
  if (!coded || !numbers) return undefined;
  return {
    binding: spec.expr.binding,
    attr,
    idx: order.idx,
    codes: coded.codes,
    size: coded.size,
    kind: numbers.kind,
    scaled: numbers.scaled,
    scale: numbers.scale,
    sign: spec.descending ? -1 : 1,
    nullKey: spec.nullsFirst ? -Number.MAX_VALUE : Number.MAX_VALUE,
  };
}

/**
 * One double per frame row that orders like the ORDER BY: scaled integers compare as their
 * numbers do, strings with a dictionary by their code's place among the strings in code point
 * order, negated for DESC, and NULL at the end it belongs to. Undefined when the column is
 * neither all numbers nor all strings (missing and NULL aside), which the general path orders.
 */
export function orderKeys(call: WindowCall, frame: Frame, env: CompileEnv): Float64Array | undefined {
  if (call.orderBy.length === 0) return new Float64Array(frame.length);
  if (call.orderBy.length > 1) return undefined;
  const spec = call.orderBy[0]!;
  const column = plainColumn(spec.expr, env, frame);
  if (!column) return undefined;
  const { table, attr, idx } = column;
  const key = new Float64Array(frame.length);
  const sign = spec.descending ? -1 : 1;
  const nullKey = spec.nullsFirst ? -Infinity : Infinity;
  // A column sealed as numbers is asked for numbers; any other for a dictionary first, which
  // a column of strings has (asking it for numbers would build a kind per row to say no).
  const dictionary = table.holdsNumbers(attr) ? undefined : table.dictionary(attr);
  if (dictionary) {
    const read = table.reader(attr)!;
    textKeys(
      idx,
      dictionary.codes,
      codeRanks(idx, dictionary.codes, dictionary.size, read),
      sign,
      nullKey,
      key,
    );
    return key;
  }
  const numbers = table.scaledNumbers(attr);
  if (!numbers) return undefined;
  const fits = scaledKeys(idx, numbers.kind, numbers.scaled, sign, nullKey, key);
  return fits ? key : undefined;
}

/** Each code's place (1, 2, …) among the strings the frame rows hold, in code point order. */
function codeRanks(idx: Int32Array, codes: Int32Array, size: number, read: RowReader): Float64Array {
  const strings = new Array<string | undefined>(size);
  for (let r = 0; r < idx.length; r++) {
    const i = idx[r]!;
    const c = i < 0 ? 0 : codes[i]!;
    if (c !== 0 && strings[c] === undefined) strings[c] = read(i) as string;
  }
  const present: number[] = [];
  for (let c = 1; c < size; c++) if (strings[c] !== undefined) present.push(c);
  present.sort((a, b) => compareStrings(strings[a]!, strings[b]!));
  const rank = new Float64Array(size);
  for (let p = 0; p < present.length; p++) rank[present[p]!] = p + 1;
  return rank;
}

function textKeys(
  idx: Int32Array,
  codes: Int32Array,
  rank: Float64Array,
  sign: number,
  nullKey: number,
  out: Float64Array,
): void {
  for (let r = 0; r < out.length; r++) {
    const i = idx[r]!;
    const c = i < 0 ? 0 : codes[i]!;
    out[r] = c === 0 ? nullKey : sign * rank[c]!;
  }
}

function scaledKeys(
  idx: Int32Array,
  kind: Uint8Array,
  scaled: Float64Array,
  sign: number,
  nullKey: number,
  out: Float64Array,
): boolean {
  for (let r = 0; r < out.length; r++) {
    const i = idx[r]!;
    const k = i < 0 ? 0 : kind[i]!;
    if (k === OTHER) return false;
    // 1 is a number; any other kind (missing, NULL) has none.
    out[r] = k === 1 ? sign * scaled[i]! : nullKey;
  }
  return true;
}

function typedOrder(call: WindowCall, frame: Frame, env: CompileEnv, keep?: number): WindowOrder | undefined {
  const partitions = partitionCodes(call, frame, env);
  if (!partitions) return undefined;
  const key = orderKeys(call, frame, env);
  if (!key) return undefined;
  const { codes, size } = partitions;
  // The best `keep` rows of each partition: `keep` row numbers per code, so only for a small
  // `keep` (top N per group); a large one sorts as usual.
  const same = (a: number, b: number): boolean => key[a] === key[b];
  if (keep !== undefined && keep <= TOP_KEPT_MAX)
    return { ...bestPerPartition(codes, size, key, keep), same };
  const { rows, starts } = groupByCodes(codes, size);
  if (call.orderBy.length > 0)
    for (let p = 0; p + 1 < starts.length; p++) sortByKey(rows, starts[p]!, starts[p + 1]!, key);
  return { rows, starts, same };
}

export const TOP_KEPT_MAX = 64;

// Read in the loops as a module constant: an imported binding is a getter call per read where
// modules are compiled to CommonJS (tsx, vitest), as correlated-average.ts found.
const OTHER = NOT_NUMBER;

/** Frame rows grouped by partition code, input order kept within (a counting sort). */
function groupByCodes(codes: Int32Array, size: number): Pick<WindowOrder, 'rows' | 'starts'> {
  const counts = new Int32Array(size + 1);
  for (let r = 0; r < codes.length; r++) counts[codes[r]! + 1]! += 1;
  for (let c = 0; c < size; c++) counts[c + 1]! += counts[c]!;
  const next = counts.slice(0, size);
  const rows = new Int32Array(codes.length);
  for (let r = 0; r < codes.length; r++) rows[next[codes[r]!]!++] = r;
  return { rows, starts: nonEmptyStarts(counts, size) };
}

/** Where each partition that has rows begins (codes of strings no frame row has are skipped). */
function nonEmptyStarts(ends: Int32Array, size: number): Int32Array {
  let count = 0;
  for (let c = 0; c < size; c++) if (ends[c + 1]! > ends[c]!) count += 1;
  const starts = new Int32Array(count + 1);
  let p = 0;
  for (let c = 0; c < size; c++) if (ends[c + 1]! > ends[c]!) starts[p++] = ends[c]!;
  starts[p] = ends[size]!;
  return starts;
}

/**
 * The first `keep` rows of each partition in window order, in one pass over the rows: each
 * partition holds its best rows so far in order, and a row enters only if it goes before the
 * last of them. Rows come in input order and enter only when strictly before, so ties keep
 * input order, as the full sort does.
 */
export function bestPerPartition(
  codes: Int32Array,
  size: number,
  key: Float64Array,
  keep: number,
): Pick<WindowOrder, 'rows' | 'starts'> {
  const best = new Int32Array(size * keep);
  // The kept rows' keys beside them: the test against the last kept row reads one array.
  const bestKey = new Float64Array(size * keep);
  const held = new Int32Array(size);
  keepBest(codes, key, keep, best, bestKey, held);
  const ends = new Int32Array(size + 1);
  for (let c = 0; c < size; c++) ends[c + 1] = ends[c]! + held[c]!;
  const rows = new Int32Array(ends[size]!);
  // A plain loop: a subarray and a set per partition cost more than the copy (10,000 partitions).
  for (let c = 0; c < size; c++) for (let j = 0; j < held[c]!; j++) rows[ends[c]! + j] = best[c * keep + j]!;
  return { rows, starts: nonEmptyStarts(ends, size) };
}

export function keepBest(
  codes: Int32Array,
  key: Float64Array,
  keep: number,
  best: Int32Array,
  bestKey: Float64Array,
  held: Int32Array,
): void {
  const last = keep - 1;
  for (let r = 0; r < codes.length; r++) {
    const c = codes[r]!;
    const base = c * keep;
    let j = held[c]!;
    const k = key[r]!;
    if (j === keep) {
      if (!(k < bestKey[base + last]!)) continue;
      j = last;
    } else held[c] = j + 1;
    while (j > 0 && k < bestKey[base + j - 1]!) {
      best[base + j] = best[base + j - 1]!;
      bestKey[base + j] = bestKey[base + j - 1]!;
      j -= 1;
    }
    best[base + j] = r;
    bestKey[base + j] = k;
  }
}

const before = (key: Float64Array, a: number, b: number): boolean =>
  key[a]! < key[b]! || (key[a] === key[b] && a < b);

/** Sorts rows[from, to) by key, ties by row (which is input order). */
function sortByKey(rows: Int32Array, from: number, to: number, key: Float64Array): void {
  if (to - from <= 32) {
    for (let i = from + 1; i < to; i++) {
      const r = rows[i]!;
      let j = i - 1;
      while (j >= from && before(key, r, rows[j]!)) {
        rows[j + 1] = rows[j]!;
        j -= 1;
      }
      rows[j + 1] = r;
    }
    return;
  }
  rows.subarray(from, to).sort((a, b) => (before(key, a, b) ? -1 : before(key, b, a) ? 1 : 0));
}

function generalOrder(call: WindowCall, frame: Frame, env: CompileEnv): WindowOrder {
  const partitionKeys = call.partitionBy.map((p) => compile(p, env)(frame));
  const orderKeys = call.orderBy.map((k) => ({
    evaluator: compile(k.expr, env)(frame),
    descending: k.descending,
    nullsFirst: k.nullsFirst,
  }));
  const rows = new Int32Array(frame.length);
  const starts: number[] = [];
  let at = 0;
  for (const unordered of partitionRows(frame.length, partitionKeys)) {
    starts.push(at);
    rows.set(orderKeys.length > 0 ? sortRows(unordered, orderKeys) : unordered, at);
    at += unordered.length;
  }
  starts.push(at);
  const evaluators = orderKeys.map((k) => k.evaluator);
  const same = (a: number, b: number): boolean =>
    evaluators.every((key) => {
      const x = key(a);
      const y = key(b);
      return isNull(x) || isNull(y) ? isNull(x) && isNull(y) : sortCompare(x, y) === 0;
    });
  return { rows, starts: Int32Array.from(starts), same };
}

function partitionRows(length: number, keys: Evaluator[]): Int32Array[] {
  if (keys.length === 0) return [identityRows(length)];
  const groups = new Map<HashKey, number[]>();
  const single = keys.length === 1 ? keys[0]! : undefined;
  for (let r = 0; r < length; r++) {
    // NULL partition keys form one partition, as NULL group keys form one group.
    const key = single ? hashKey(single(r)) : compositeKey(keys.map((k) => k(r)));
    let rows = groups.get(key);
    if (!rows) groups.set(key, (rows = []));
    rows.push(r);
  }
  return [...groups.values()].map((rows) => Int32Array.from(rows));
}
