import { conjuncts } from '../../binder/conjuncts';
import type { BoundSelect, WindowCall } from '../../binder/bound';
import type { Value } from '../../values/value';
import type { CompileEnv } from '../compile';
import { type Frame, selectRows } from '../frame';
import { type NumberTest, rankTest, upperBound } from './window';
import {
  keepBest,
  orderKeys,
  partitionCodes,
  type StoredKeys,
  storedKeys,
  TOP_KEPT_MAX,
} from './window-order';
import {
  heldOf,
  keepNumbers,
  keepStored,
  keepThree,
  numberKept,
  tallyEvery,
  tallyPlaces,
} from './window-top-loops';

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
  const kept = keptRows(select, frame, env);
  if (!kept) return undefined;
  // Into frame order: each kept row's number marked at its place (1..64 fits a byte), then read.
  const mark = new Uint8Array(frame.length);
  for (let k = 0; k < kept.rows.length; k++) mark[kept.rows[k]!] = kept.numbers[k]!;
  const rows = new Int32Array(kept.rows.length);
  const numbers = new Array<Value>(kept.rows.length);
  let count = 0;
  for (let r = 0; r < mark.length; r++) {
    const n = mark[r]!;
    if (n === 0) continue;
    rows[count] = r;
    numbers[count++] = n;
  }
  return { frame: selectRows(frame, rows), numbers };
}

/** The frame rows QUALIFY keeps and their numbers, in no particular order (a partition's together). */
export interface KeptRows {
  rows: Int32Array;
  /** 1..keep (at most TOP_KEPT_MAX). */
  numbers: Uint8Array;
  /** Their ORDER BY keys, where the selection read them from a column's scaled integers. */
  keys?: KeptKeys;
}

/** keys[k]: kept row k's scaled integer times `sign`, or `nullKey` where it has no number. */
export interface KeptKeys extends Pick<StoredKeys, 'binding' | 'attr' | 'scale' | 'sign' | 'nullKey'> {
  keys: Float64Array;
}

/** What QUALIFY asks of the SELECT's one ranking window: numbers 1..keep, and which of them pass. */
interface Selection {
  call: WindowCall;
  keep: number;
  passes: Uint8Array;
}

function selection(select: BoundSelect): Selection | undefined {
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
  keep = Math.max(0, keep);
  // Every number a row can have is 1..keep: which of them pass QUALIFY, asked once each.
  const passes = new Uint8Array(keep + 1);
  for (let n = 1; n <= keep; n++) passes[n] = tests.every((test) => test(n)) ? 1 : 0;
  return { call, keep, passes };
}

/** What topPerPartition keeps, before it is put in frame order: an aggregate of them needs no order. */
export function keptRows(select: BoundSelect, frame: Frame, env: CompileEnv): KeptRows | undefined {
  const chosen = selection(select);
  if (!chosen) return undefined;
  const { call, keep, passes } = chosen;
  if (keep === 0) return { rows: new Int32Array(0), numbers: new Uint8Array(0) };
  if (call.name === 'ROW_NUMBER') return rowNumbers(call, frame, env, keep, passes);
  const partitions = partitionCodes(call, frame, env);
  const key = partitions && orderKeys(call, frame, env);
  if (!partitions || !key) return undefined;
  const number = new Uint8Array(frame.length);
  rankNumbers(partitions.codes, partitions.size, key, keep, call.name === 'DENSE_RANK', number);
  return passingRows(number, passes);
}

/**
 * What COUNT(*) and COUNT, SUM or AVG of the ORDER BY column need of the kept rows: how many
 * they are, how many have a number, and the sum and magnitudes of those keys (scaled integer
 * times `sign`).
 */
export interface KeysTally extends Pick<StoredKeys, 'binding' | 'attr' | 'scale' | 'sign'> {
  rows: number;
  numbers: number;
  sum: number;
  magnitude: number;
}

/**
 * The tally of the rows a ROW_NUMBER's QUALIFY keeps, with no row kept (window-top-aggregate.ts):
 * the selection moves one array, not two (the row numbers beside the keys were a quarter of its
 * time at 100,000 rows), and the passing keys are added where they lie. Undefined where
 * `keptRows` would not read the stored keys.
 */
export function keptTally(select: BoundSelect, frame: Frame, env: CompileEnv): KeysTally | undefined {
  const chosen = selection(select);
  if (!chosen || chosen.call.name !== 'ROW_NUMBER' || chosen.keep === 0) return undefined;
  const { call, keep, passes } = chosen;
  const stored = storedKeys(call, frame, env);
  if (!stored) return undefined;
  const { idx, codes, size, kind, scaled, sign, nullKey } = stored;
  // Up to three places a partition are kept three a partition, by `keepThree`.
  const stride = keep <= 3 ? 3 : keep;
  let bestKey = placesOf(size * stride);
  const stopped =
    stride === 3
      ? keepThree(idx, codes, kind, scaled, sign, bestKey)
      : keepNumbers(idx, codes, kind, scaled, sign, keep, bestKey);
  // A frame row with no number (or no row) stops the loop for numbers, and the one that places
  // NULLs starts over, `keep` places a partition; its row numbers are not read.
  const tally = new Float64Array(4);
  if (stopped >= 0) {
    bestKey = placesOf(size * keep);
    const best = new Int32Array(size * keep);
    if (!keepStored(idx, codes, kind, scaled, sign, nullKey, keep, best, bestKey)) return undefined;
    tallyPlaces(bestKey, keep, keep, passes, nullKey, tally);
  } else if (stride === keep && passes.every((pass, n) => n === 0 || pass === 1)) {
    // No key is NULL's, and every place passes.
    tallyEvery(bestKey, tally);
  } else tallyPlaces(bestKey, stride, keep, passes, nullKey, tally);
  return tallyOf(stored, tally);
}

/**
 * The tally's places, `length` of them: one array kept from statement to statement (up to
 * PLACES_KEPT), which every selection fills before it reads it and which never leaves
 * `keptTally`. A fresh 240 KB array per statement (10,000 partitions × 3) was 7–10% of the
 * bench's window statement's selection at 100,000 rows (pages mapped and zeroed, and the
 * collections that external memory brings on). One for the worker rather than one per table:
 * nothing in it outlives a statement, so there is nothing to renew when rows change.
 */
function placesOf(length: number): Float64Array {
  if (length > PLACES_KEPT) return new Float64Array(length);
  if (places.length < length)
    places = new Float64Array(Math.max(length, Math.min(PLACES_KEPT, places.length * 2)));
  return places.subarray(0, length);
}

/** 4 MB, 524,288 places: 174,762 partitions of three. */
const PLACES_KEPT = 1 << 19;
let places = new Float64Array(0);

/** The frame rows whose number passes, in frame order. */
function passingRows(number: Uint8Array, passes: Uint8Array): KeptRows {
  let count = 0;
  for (let r = 0; r < number.length; r++) count += passes[number[r]!]!;
  const rows = new Int32Array(count);
  const numbers = new Uint8Array(count);
  count = 0;
  for (let r = 0; r < number.length; r++) {
    const n = number[r]!;
    if (passes[n] === 0) continue;
    rows[count] = r;
    numbers[count++] = n;
  }
  return { rows, numbers };
}

/**
 * ROW_NUMBER: per code, the first `keep` rows in window order, in one pass over the frame. A
 * partition column with codes and an order column of scaled integers are read where they are
 * stored, row by row, in the selection's loop (`keepStored`); any other typed keys are first
 * built per frame row (window-order.ts) and then selected.
 */
function rowNumbers(
  call: WindowCall,
  frame: Frame,
  env: CompileEnv,
  keep: number,
  passes: Uint8Array,
): KeptRows | undefined {
  const stored = storedKeys(call, frame, env);
  const partitions = stored ?? partitionCodes(call, frame, env);
  if (!partitions) return undefined;
  const { size } = partitions;
  const best = new Int32Array(size * keep);
  const bestKey = new Float64Array(size * keep);
  const held = new Int32Array(size);
  if (stored) {
    const { idx, codes, kind, scaled, sign, nullKey } = stored;
    if (!keepStored(idx, codes, kind, scaled, sign, nullKey, keep, best, bestKey)) return undefined;
    heldOf(bestKey, keep, held);
  } else {
    const key = orderKeys(call, frame, env);
    if (!key) return undefined;
    keepBest(partitions.codes, key, keep, best, bestKey, held);
  }
  const numbers = new Uint8Array(best.length);
  const count = numberKept(best, bestKey, held, keep, passes, numbers);
  const kept = { rows: best.subarray(0, count), numbers: numbers.subarray(0, count) };
  if (!stored) return kept;
  const { binding, attr, scale, sign, nullKey } = stored;
  return { ...kept, keys: { binding, attr, scale, sign, nullKey, keys: bestKey.subarray(0, count) } };
}

/** The tally of keys that the kept rows' path already selected (KeptRows.keys). */
export function tallySelected(kept: KeptKeys): KeysTally {
  const tally = new Float64Array(4);
  tallyPlaces(kept.keys, 1, 1, ONE_PLACE, kept.nullKey, tally);
  return tallyOf(kept, tally);
}

/** Keys already selected are tallied as partitions of one place that passes. */
const ONE_PLACE = Uint8Array.of(0, 1);

/** The tally's four figures (tallyPlaces) with the column they are of. */
function tallyOf(
  of: Pick<StoredKeys, 'binding' | 'attr' | 'scale' | 'sign'>,
  tally: Float64Array,
): KeysTally {
  const { binding, attr, scale, sign } = of;
  return {
    binding,
    attr,
    scale,
    sign,
    rows: tally[0]!,
    numbers: tally[1]!,
    sum: tally[2]!,
    magnitude: tally[3]!,
  };
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
  number: Uint8Array,
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
