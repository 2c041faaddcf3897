import { addScaledRow } from './aggregate-calls';

/**
 * The per-row loops of the batched GROUP BY (aggregate-batches.ts): each is a function of typed
 * arrays and numbers on its own, so V8 optimizes it once, on the first statement, and no later
 * statement's objects change what it sees (a loop inlined in a method was deoptimized again in
 * each statement's first runs, and its recompiles counted as the statement's CPU time).
 *
 * A kernel finds each row's group and numbers a new group itself (recording the row it first
 * appeared in), so its caller turns once a batch, not once a group; it stops early only when the
 * per-group arrays are full (`state[COUNT] === state[CAPACITY]`), for the caller to grow them.
 * With `isSummed` it also adds each row's scaled number to its group, as addScaledByGroup does
 * (addScaledRow): the first SUM or AVG costs no pass of its own.
 */

/** Slots of the state array shared by a Groups and its kernels. */
export const COUNT = 0;
export const CAPACITY = 1;
/** Lookup batches: rows written to the batch so far. */
export const FILLED = 2;
/** Lookup batches: 1 when the kernel stopped for room, not for a full batch. */
export const NEEDS_ROOM = 3;
export const STATE_SIZE = 4;

/**
 * Group numbers of rows[from …] by one key's codes, each group's rows counted in `sizes`; a new
 * group's first row goes to `firstRows`. Returns the row it stopped at: `length`, or the first
 * row whose new group found no room.
 */
export function groupsByCode(
  rows: Int32Array,
  from: number,
  length: number,
  codes: Int32Array,
  byCode: Int32Array,
  groupOf: Int32Array,
  sizes: Float64Array,
  firstRows: Int32Array,
  state: Int32Array,
  isSummed: boolean,
  scaled: Float64Array,
  kind: Uint8Array,
  sums: Float64Array,
  counts: Float64Array,
  tally: Float64Array,
): number {
  const capacity = state[CAPACITY]!;
  let count = state[COUNT]!;
  let r = from;
  for (; r < length; r++) {
    const i = rows[r]!;
    const code = i < 0 ? 0 : codes[i]!;
    let g = byCode[code]!;
    if (g < 0) {
      if (count === capacity) break;
      g = count++;
      byCode[code] = g;
      firstRows[g] = i;
    }
    groupOf[r] = g;
    sizes[g]! += 1;
    if (isSummed && i >= 0) addScaledRow(i, g, scaled, kind, sums, counts, tally);
  }
  state[COUNT] = count;
  return r;
}

/**
 * Probe rows of a lookup join from `from` on, each to its group through its key number (the
 * build row's combined key code), written to outRows and groupOf after state[FILLED] rows; a
 * new group's build row goes to `firstBuild`. An INNER join drops a row with no build row, a
 * LEFT join keeps it in the group of NULL keys (code 0). Stops when the batch is full or a new
 * group finds no room (state[NEEDS_ROOM]); returns the probe position to go on from.
 */
export function lookupGroups(
  probeRows: Int32Array,
  from: number,
  probeNumbers: Int32Array,
  buildRowOfKey: Int32Array,
  codeOfKey: Int32Array,
  keepUnmatched: boolean,
  byCode: Int32Array,
  groupOf: Int32Array,
  sizes: Float64Array,
  firstBuild: Int32Array,
  outRows: Int32Array,
  state: Int32Array,
  isSummed: boolean,
  scaled: Float64Array,
  kind: Uint8Array,
  sums: Float64Array,
  counts: Float64Array,
  tally: Float64Array,
): number {
  const batchRows = outRows.length;
  const capacity = state[CAPACITY]!;
  let count = state[COUNT]!;
  let n = state[FILLED]!;
  state[NEEDS_ROOM] = 0;
  let p = from;
  for (; p < probeRows.length; p++) {
    const i = probeRows[p]!;
    const k = i < 0 ? -1 : probeNumbers[i]!;
    let code = k < 0 ? -1 : codeOfKey[k]!;
    if (code < 0) {
      if (!keepUnmatched) continue;
      code = 0;
    }
    let g = byCode[code]!;
    if (g < 0) {
      if (count === capacity) {
        state[NEEDS_ROOM] = 1;
        break;
      }
      g = count++;
      byCode[code] = g;
      firstBuild[g] = k < 0 ? -1 : buildRowOfKey[k]!;
    }
    outRows[n] = i;
    groupOf[n] = g;
    sizes[g]! += 1;
    n += 1;
    if (isSummed && i >= 0) addScaledRow(i, g, scaled, kind, sums, counts, tally);
    if (n === batchRows) {
      p += 1;
      break;
    }
  }
  state[COUNT] = count;
  state[FILLED] = n;
  return p;
}

/**
 * One key's codes folded into each key number's combined code (out = out · size + code, keys
 * taken last to first, as Groups combines a row's codes); -1 for a key number with no build row.
 */
export function combineCodes(
  buildRowOfKey: Int32Array,
  codes: Int32Array,
  size: number,
  out: Int32Array,
): void {
  for (let k = 0; k < out.length; k++) {
    const b = buildRowOfKey[k]!;
    out[k] = b < 0 ? -1 : out[k]! * size + codes[b]!;
  }
}
