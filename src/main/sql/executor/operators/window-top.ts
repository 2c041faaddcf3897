import { conjuncts } from '../../binder/conjuncts';
import type { BoundSelect } from '../../binder/bound';
import type { Value } from '../../values/value';
import type { CompileEnv } from '../compile';
import { type Frame, selectRows } from '../frame';
import { type NumberTest, rankTest, upperBound } from './window';
import { keepBest, orderKeys, partitionCodes, TOP_KEPT_MAX } from './window-order';

/**
 * Top N per partition as one operator: `QUALIFY ROW_NUMBER() OVER (PARTITION BY k ORDER BY v
 * DESC) <= 3` (or RANK / DENSE_RANK), including a derived table's `WHERE rn <= 3` moved in by
 * push-into-derived.ts. Per partition code (column-codes.ts) it keeps the N best rows (RANK:
 * the N best order keys counted with their ties; DENSE_RANK: the N best distinct keys) in one
 * pass over typed arrays, then hands on a frame of only the rows that pass, with their numbers.
 * The window's value is never built for the rows that fail, and QUALIFY is not tested row by
 * row: the general path (window.ts) filled a value per frame row, numbered, then tested every
 * row, and the derived table was then built from every column of what passed.
 *
 * Exact or not taken: QUALIFY is only comparisons of the one window's number with a constant,
 * at least one of them bounding it (≤ TOP_KEPT_MAX); the SELECT has one window call and no
 * GROUP BY; PARTITION BY is at most one plain column that has codes, ORDER BY one plain column
 * of numbers that have scaled integers or of strings that have a dictionary (window-order.ts
 * `orderKeys`). Anything else — several windows, expressions, BigInt decimals, a QUALIFY with
 * OR or another column — goes the general path, unchanged. Ties: ROW_NUMBER numbers tied rows
 * in input order, as the general path's sort does; RANK and DENSE_RANK give ties one number.
 */
export interface TopRows {
  /** The rows that pass QUALIFY, in frame order. */
  frame: Frame;
  /** The window's number for each of them. */
  numbers: Value[];
}

const RANKINGS = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK']);

export function topPerPartition(select: BoundSelect, frame: Frame, env: CompileEnv): TopRows | undefined {
  const [call] = select.windows;
  if (!call || select.windows.length !== 1 || !select.qualify || select.aggregate) return undefined;
  if (!RANKINGS.has(call.name) || (call.name !== 'ROW_NUMBER' && call.orderBy.length !== 1)) return undefined;
  const tests: NumberTest[] = [];
  let keep = Infinity;
  for (const condition of conjuncts(select.qualify)) {
    const test = rankTest(condition, select.windows);
    if (!test) return undefined;
    tests.push(test.test);
    const bound = upperBound(test);
    if (bound !== undefined) keep = Math.min(keep, bound);
  }
  if (keep > TOP_KEPT_MAX) return undefined;
  if (keep < 1) return { frame: selectRows(frame, new Int32Array(0)), numbers: [] };
  const partitions = partitionCodes(call, frame, env);
  const key = partitions && orderKeys(call, frame, env);
  if (!partitions || !key) return undefined;
  const number = new Int32Array(frame.length);
  if (call.name === 'ROW_NUMBER') rowNumbers(partitions.codes, partitions.size, key, keep, number);
  else rankNumbers(partitions.codes, partitions.size, key, keep, call.name === 'DENSE_RANK', number);
  // Every number a row can have is 1..keep: which of them pass QUALIFY, asked once each.
  const passes = new Uint8Array(keep + 1);
  for (let n = 1; n <= keep; n++) passes[n] = tests.every((test) => test(n)) ? 1 : 0;
  const rows = new Int32Array(frame.length);
  const count = passingRows(number, passes, rows);
  const kept = rows.subarray(0, count);
  const numbers = new Array<Value>(count);
  for (let i = 0; i < count; i++) numbers[i] = number[kept[i]!]!;
  return { frame: selectRows(frame, kept), numbers };
}

/** The frame rows whose number passes, in frame order, written to the front of `rows`. */
function passingRows(number: Int32Array, passes: Uint8Array, rows: Int32Array): number {
  let count = 0;
  for (let r = 0; r < number.length; r++) if (passes[number[r]!] === 1) rows[count++] = r;
  return count;
}

/** number[r]: row r's ROW_NUMBER when it is among the first `keep` of its partition, else 0. */
function rowNumbers(
  codes: Int32Array,
  size: number,
  key: Float64Array,
  keep: number,
  number: Int32Array,
): void {
  const best = new Int32Array(size * keep);
  const held = new Int32Array(size);
  keepBest(codes, key, keep, best, new Float64Array(size * keep), held);
  numberKept(best, held, keep, number);
}

function numberKept(best: Int32Array, held: Int32Array, keep: number, number: Int32Array): void {
  for (let c = 0; c < held.length; c++) {
    const base = c * keep;
    for (let j = 0; j < held[c]!; j++) number[best[base + j]!] = j + 1;
  }
}

/**
 * number[r]: row r's RANK (DENSE_RANK) when it is at most `keep`, else 0. Per code, the
 * `keep` smallest keys counted with their ties (distinct keys): a row's rank is one more than
 * the kept keys below its own, and a row whose key is past the last kept one is past `keep`.
 */
function rankNumbers(
  codes: Int32Array,
  size: number,
  key: Float64Array,
  keep: number,
  dense: boolean,
  number: Int32Array,
): void {
  const best = new Float64Array(size * keep);
  const held = new Int32Array(size);
  for (let r = 0; r < codes.length; r++) {
    const c = codes[r]!;
    const base = c * keep;
    const k = key[r]!;
    let j = held[c]!;
    if (dense && holds(best, base, j, k)) continue;
    if (j === keep) {
      if (!(k < best[base + keep - 1]!)) continue;
      j = keep - 1;
    } else held[c] = j + 1;
    while (j > 0 && k < best[base + j - 1]!) {
      best[base + j] = best[base + j - 1]!;
      j -= 1;
    }
    best[base + j] = k;
  }
  for (let r = 0; r < codes.length; r++) {
    const c = codes[r]!;
    const base = c * keep;
    const k = key[r]!;
    const h = held[c]!;
    if (h === keep && k > best[base + keep - 1]!) continue;
    let below = 0;
    while (below < h && best[base + below]! < k) below += 1;
    number[r] = below + 1;
  }
}

function holds(best: Float64Array, base: number, held: number, k: number): boolean {
  for (let j = 0; j < held; j++) if (best[base + j] === k) return true;
  return false;
}
