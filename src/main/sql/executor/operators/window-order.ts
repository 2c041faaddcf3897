import { compositeKey, hashKey, type HashKey, sortCompare } from '../../values/compare';
import { columnCodes, hashCodes } from '../column-codes';
import { isNull } from '../../values/value';
import type { BExpr, WindowCall } from '../../binder/bound';
import { NOT_NUMBER } from '../column-views';
import { compile, type CompileEnv, type Evaluator } from '../compile';
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
 * (ORDER BY) and sorts small integers: no boxed value is compared. It covers one string
 * partition key and one number order key, the shape of "top N per user"; anything else (several
 * keys, expressions, a column that mixes numbers with other types or holds BigInt decimals)
 * takes the general path, which compares values.
 */
export function windowOrder(call: WindowCall, frame: Frame, env: CompileEnv): WindowOrder {
  return typedOrder(call, frame, env) ?? generalOrder(call, frame, env);
}

function plainColumn(e: BExpr, env: CompileEnv, frame: Frame) {
  if (e.kind !== 'col' || e.path.length > 0) return undefined;
  const idx = frame.idx[e.binding];
  const table = env.tables[e.binding];
  return idx && table && idx.length === frame.length ? { table, attr: e.attr, idx } : undefined;
}

/** Frame rows grouped by the partition code (0 = NULL or missing), input order kept within. */
function groupByCodes(frame: Frame, codeOf: (r: number) => number, size: number): WindowOrder {
  const counts = new Int32Array(size + 1);
  for (let r = 0; r < frame.length; r++) counts[codeOf(r) + 1]! += 1;
  for (let c = 0; c < size; c++) counts[c + 1]! += counts[c]!;
  const next = counts.slice(0, size);
  const rows = new Int32Array(frame.length);
  for (let r = 0; r < frame.length; r++) rows[next[codeOf(r)]!++] = r;
  // Drop empty partitions (codes of strings no frame row has).
  const starts: number[] = [];
  for (let c = 0; c < size; c++) if (counts[c + 1]! > counts[c]!) starts.push(counts[c]!);
  starts.push(frame.length);
  return { rows, starts: Int32Array.from(starts), same: () => true };
}

function typedOrder(call: WindowCall, frame: Frame, env: CompileEnv): WindowOrder | undefined {
  if (call.partitionBy.length > 1 || call.orderBy.length > 1) return undefined;
  let grouped: WindowOrder;
  if (call.partitionBy.length === 0) {
    grouped = {
      rows: identityRows(frame.length),
      starts: Int32Array.of(0, frame.length),
      same: () => true,
    };
  } else {
    const column = plainColumn(call.partitionBy[0]!, env, frame);
    if (!column) return undefined;
    const { idx } = column;
    const coded = columnCodes(column.table, column.attr, frame.length);
    if (coded) {
      const { codes } = coded;
      grouped = groupByCodes(frame, (r) => (idx[r]! < 0 ? 0 : codes[idx[r]!]!), coded.size);
    } else {
      // A few rows of a large column: code just those values.
      const read = column.table.reader(column.attr);
      if (!read) return undefined;
      const { codes, size } = hashCodes(frame.length, (r) => (idx[r]! < 0 ? undefined : read(idx[r]!)));
      grouped = groupByCodes(frame, (r) => codes[r]!, size);
    }
  }
  if (call.orderBy.length === 0) return grouped;
  const spec = call.orderBy[0]!;
  const column = plainColumn(spec.expr, env, frame);
  const numbers = column?.table.scaledNumbers(column.attr);
  if (!column || !numbers) return undefined;
  // One double per frame row that orders like the ORDER BY: scaled integers compare as their
  // numbers do, negated for DESC, and NULL at the end it belongs to.
  const key = new Float64Array(frame.length);
  const nullKey = spec.nullsFirst ? -Infinity : Infinity;
  const { idx } = column;
  for (let r = 0; r < frame.length; r++) {
    const i = idx[r]!;
    const kind = i < 0 ? 0 : numbers.kind[i]!;
    if (kind === NOT_NUMBER) return undefined;
    // 1 is a number; any other kind (missing, NULL) has none.
    key[r] = kind !== 1 ? nullKey : spec.descending ? -numbers.scaled[i]! : numbers.scaled[i]!;
  }
  const { rows, starts } = grouped;
  for (let p = 0; p + 1 < starts.length; p++) sortByKey(rows, starts[p]!, starts[p + 1]!, key);
  return { rows, starts, same: (a, b) => key[a] === key[b] };
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
