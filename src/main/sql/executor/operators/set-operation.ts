import { AppFailure } from '../../../../shared/errors';
import { SqlErrorCodes } from '../../parser/sql-error';
import { compositeKey } from '../../values/compare';
import type { Value } from '../../values/value';
import type { BoundQuery, BoundSetOperation } from '../../binder/bound';
import type { Evaluator } from '../compile';
import { ColumnResult, type ResultTable } from '../result';
import { distinctRows, limitRows, sortRows } from './sort';

function rowKeys(data: Value[][], from: number, to: number): string[] {
  const keys: string[] = [];
  for (let r = from; r < to; r++) keys.push(compositeKey(data.map((column) => column[r])));
  return keys;
}

/**
 * Which rows of the combined input (left rows, then right rows) a set operation keeps. Rows
 * compare as DISTINCT does: NULL equals NULL, and a missing value equals NULL.
 *   UNION [ALL]      every row (duplicates removed without ALL);
 *   INTERSECT [ALL]  left rows also on the right (ALL: as many times as the smaller side has them);
 *   EXCEPT [ALL]     left rows not on the right (ALL: each right copy cancels one left copy).
 */
function keptRows(op: BoundSetOperation, data: Value[][], leftLength: number, total: number): Int32Array {
  const all = Int32Array.from({ length: total }, (_, i) => i);
  const evaluators: Evaluator[] = data.map((column) => (r) => column[r]);
  if (op.op === 'UNION') return op.all ? all : distinctRows(all, evaluators);
  const right = new Map<string, number>();
  for (const key of rowKeys(data, leftLength, total)) right.set(key, (right.get(key) ?? 0) + 1);
  const left = rowKeys(data, 0, leftLength);
  const kept: number[] = [];
  const emitted = new Set<string>();
  left.forEach((key, r) => {
    const onRight = right.get(key) ?? 0;
    if (op.all) {
      // Each match uses up one copy on the right.
      if (op.op === 'INTERSECT' ? onRight > 0 : onRight === 0) kept.push(r);
      if (onRight > 0) right.set(key, onRight - 1);
      return;
    }
    if (emitted.has(key) || (op.op === 'INTERSECT') !== onRight > 0) return;
    emitted.add(key);
    kept.push(r);
  });
  return Int32Array.from(kept);
}

/** UNION, INTERSECT and EXCEPT: the set operations as one operator over two finished results. */
export function executeSetOperation(op: BoundSetOperation, run: (q: BoundQuery) => ResultTable): ResultTable {
  const left = run(op.left);
  const right = run(op.right);
  if (left.columns.length !== right.columns.length) {
    throw new AppFailure(
      SqlErrorCodes.semantic,
      `Both sides of ${op.op} must have the same number of columns (${left.columns.length} and ${right.columns.length}).`,
    );
  }
  const data: Value[][] = left.columns.map((_, j) => [...left.column(j), ...right.column(j)]);
  let order = keptRows(op, data, left.length, left.length + right.length);
  if (op.orderBy.length > 0) {
    const keys = op.orderBy.map((k) => {
      if (k.output < 0 || k.output >= data.length)
        throw new AppFailure(
          SqlErrorCodes.semantic,
          `ORDER BY ${k.output + 1} is not one of the ${data.length} columns.`,
        );
      const column = data[k.output]!;
      return { evaluator: (r: number) => column[r], descending: k.descending, nullsFirst: k.nullsFirst };
    });
    order = sortRows(order, keys);
  }
  order = limitRows(order, op.offset, op.limit);
  const picked = data.map((column) => Array.from(order, (r) => column[r]));
  return new ColumnResult(left.columns, picked, order.length);
}
