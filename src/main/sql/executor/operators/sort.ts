import { compositeKey, sortCompare } from '../../values/compare';
import { isNull, type Value } from '../../values/value';
import type { Evaluator } from '../compile';

export interface SortSpec {
  evaluator: Evaluator;
  descending: boolean;
  nullsFirst: boolean;
}

function comparator(keys: SortSpec[], values: Value[][]): (a: number, b: number) => number {
  return (a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const column = values[k]!;
      const x = column[a];
      const y = column[b];
      const xNull = isNull(x);
      const yNull = isNull(y);
      if (xNull || yNull) {
        if (xNull && yNull) continue;
        return xNull === keys[k]!.nullsFirst ? -1 : 1;
      }
      const c = sortCompare(x, y);
      if (c !== 0) return keys[k]!.descending ? -c : c;
    }
    // Ties keep their original order, so results are stable run to run.
    return a - b;
  };
}

/**
 * Row order for ORDER BY over `rows` frame rows. With a small LIMIT only the first `top` rows
 * are kept sorted (insertion into a short sorted list), which beats sorting a million rows to
 * show ten.
 */
export function sortRows(rows: readonly number[] | Int32Array, keys: SortSpec[], top?: number): Int32Array {
  const count = rows.length;
  const values = keys.map((key) => {
    const column = new Array<Value>(count);
    for (let i = 0; i < count; i++) column[i] = key.evaluator(rows[i]!);
    return column;
  });
  const compare = comparator(keys, values);
  if (top !== undefined && top * 8 < count) {
    const best: number[] = [];
    for (let i = 0; i < count; i++) {
      if (best.length === top && compare(i, best[top - 1]!) >= 0) continue;
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(best[mid]!, i) <= 0) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, i);
      if (best.length > top) best.pop();
    }
    return Int32Array.from(best, (i) => rows[i]!);
  }
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort(compare);
  return Int32Array.from(order, (i) => rows[i]!);
}

/** Keeps the first of rows whose values are all equal (NULL equals NULL here, as DISTINCT wants). */
export function distinctRows(order: Int32Array, evaluators: Evaluator[]): Int32Array {
  const seen = new Set<string>();
  return order.filter((r) => {
    const key = compositeKey(evaluators.map((ev) => ev(r)));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** OFFSET and LIMIT over rows already in result order. */
export function limitRows(order: Int32Array, offset = 0, limit?: number): Int32Array {
  if (offset === 0 && (limit === undefined || limit >= order.length)) return order;
  return order.subarray(
    Math.min(offset, order.length),
    limit === undefined ? undefined : Math.min(order.length, offset + limit),
  );
}
