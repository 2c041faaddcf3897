import type { Value } from '../../values/value';
import { NOT_NUMBER, type ScaledNumbers } from '../column-views';

/**
 * The loops of GROUP BY in one pass (aggregate-scan.ts): each a function of typed arrays and
 * numbers on its own, which V8 optimizes once and no statement's objects change. The commonest
 * forms (COUNT(*) and SUM/AVG over a table's rows or an entity view's, directly or through a
 * join's lookup, with a code filter in the loop) have a loop written for the form, as the
 * hand-written side of `npm run bench:sql` is; every other form shares one loop with flags.
 */

/**
 * A column's scaled integers with NaN where a row holds no number, and the largest magnitude:
 * the loop then tests one array (`s === s`, as the hand-written side tests its cents) instead of
 * reading a kind per row, and SAFE_TOTAL is checked once (largest × rows) instead of adding up
 * magnitudes per row. `others`: rows holding a value that is not a number (text among numbers),
 * which a loop that cannot warn as AVG does leaves to the general path (correlated-average.ts).
 * Kept while the column's scaled form lives (8 bytes a row).
 */
export interface NanValues {
  values: Float64Array;
  largest: number;
  others: number;
}

const nanValues = new WeakMap<ScaledNumbers, NanValues>();

export function valuesOf(numbers: ScaledNumbers): NanValues {
  let found = nanValues.get(numbers);
  if (!found) {
    const values = new Float64Array(numbers.kind.length);
    const largest = withNaN(numbers.scaled, numbers.kind, values);
    nanValues.set(numbers, (found = { values, largest, others: countOthers(numbers.kind) }));
  }
  return found;
}

function withNaN(scaled: Float64Array, kind: Uint8Array, out: Float64Array): number {
  let largest = 0;
  for (let i = 0; i < out.length; i++) {
    if (kind[i] !== 1) {
      out[i] = NaN;
      continue;
    }
    const s = scaled[i]!;
    out[i] = s;
    const magnitude = s < 0 ? -s : s;
    if (magnitude > largest) largest = magnitude;
  }
  return largest;
}

function countOthers(kind: Uint8Array): number {
  let others = 0;
  for (let i = 0; i < kind.length; i++) if (kind[i] === NOT_NUMBER) others += 1;
  return others;
}

export const NONE = 0;
export const SUM = 1;
export const MIN = 2;
export const MAX = 3;

export const GROUPS = 0;
export const PASSED = 1;
export const SKIPPED = 2;

/** One loop's per-code arrays, and its tally (GROUPS, PASSED, SKIPPED). */
export interface Pass {
  counts: Float64Array;
  /** Codes in order of first appearance, and the walked row each first appeared at. */
  order: Int32Array;
  firstRow: Int32Array;
  /** Per code: the scaled sum, or the best scaled value (NaN: none yet). */
  acc: Float64Array;
  /** Per code: rows whose value is no number (NULL, missing or another type). */
  others: Float64Array;
  tally: Float64Array;
}

/**
 * What one loop walks: the rows (listed, or every row of the table), the one code filter, and
 * each row's group code: the key's own code, or through a join's lookup the code of the key at
 * the row it matches (-1: an INNER join drops the row), resolved per row when the lookup was
 * made (aggregate-scan.ts `groupsOfRows`); and how many codes the key has.
 */
export interface Walk {
  rows?: Int32Array;
  filter?: { codes: Int32Array; accepts: Uint8Array };
  rowCount: number;
  codes: Int32Array;
  /** `codes` is -1 at every row outside `rows`: without a filter, the loop walks every row. */
  isMasked: boolean;
  keySize: number;
  /** Where the groups' order over these rows and codes is kept between statements (a join's lookup). */
  kept?: KeptOrder;
}

/**
 * The groups' order of first appearance over a walk without a filter depends only on its rows
 * and codes, so what keeps those (a join's lookup: its per-row groups, for one entity view's
 * rows) keeps the order too: finding it again read half the one-table JOIN's rows in every
 * statement (5,000 names met over 45,000 orders), 0.2 ms of its 1.5 (docs/PERFORMANCE.md, sqljoin9).
 */
export interface KeptOrder {
  order?: { order: Int32Array; firstRow: Int32Array; groups: number; keys?: Value[] };
}

/** One loop over the walked rows: the groups, their counts, and with `op` one column's SUM, MIN or MAX. */
export function scan(walk: Walk, op: number, values: Float64Array, kind: Uint8Array): Pass {
  const size = walk.keySize;
  const pass: Pass = {
    counts: new Float64Array(size),
    order: EMPTY_ROWS,
    firstRow: EMPTY_ROWS,
    acc: new Float64Array(op === NONE ? 0 : size),
    others: new Float64Array(op === NONE ? 0 : size),
    tally: new Float64Array(3),
  };
  if (op === MIN || op === MAX) pass.acc.fill(NaN);
  const hasSum = op === SUM;
  // The commonest forms each have a loop of their own: one function that tests a flag per row
  // for every form measured 1.4-1.6× a loop written for one form (V8 keeps every path it has
  // seen taken in one optimized copy).
  if ((op === NONE || hasSum) && !(walk.filter && walk.rows)) {
    // The order is found after the loop (or taken as kept); the arrays are made there.
    pass.order = EMPTY_ROWS;
    pass.firstRow = EMPTY_ROWS;
    sumCodes(walk, pass, values, kind, hasSum);
    return pass;
  }
  const { rows, filter } = walk;
  pass.order = new Int32Array(size);
  pass.firstRow = new Int32Array(size);
  const list = rows ?? EMPTY_ROWS;
  const test = filter ?? NO_FILTER;
  scanRows(
    list,
    rows ? list.length : walk.rowCount,
    rows !== undefined,
    test.codes,
    test.accepts,
    filter !== undefined,
    walk.codes,
    pass,
    values,
    kind,
    op,
  );
  return pass;
}

const EMPTY_ROWS = new Int32Array(0);
export const EMPTY_VALUES = new Float64Array(0);
export const EMPTY_KIND = new Uint8Array(0);
const NO_FILTER = { codes: new Int32Array(0), accepts: new Uint8Array(0) };

/** A code's group is new: it takes the next place in the order, at row i. Off the hot path. */
function firstSeen(c: number, i: number, order: Int32Array, firstRow: Int32Array, tally: Float64Array): void {
  const g = tally[GROUPS]!;
  order[g] = c;
  firstRow[g] = i;
  tally[GROUPS] = g + 1;
}

/** Row i of group c holds no number (NULL, missing, or another type, which SUM skips and counts). */
function noNumber(c: number, i: number, others: Float64Array, kind: Uint8Array, tally: Float64Array): void {
  others[c]! += 1;
  if (kind[i] === NOT_NUMBER) tally[SKIPPED]! += 1;
}

/**
 * Every row of the table (or those passing a code filter), or the listed rows (an entity
 * view's), grouped by their code: `GROUP BY status`, or through a join's lookup `GROUP BY u.name`
 * (a negative code: the INNER join drops the row). Each code's sum and count of numbers lie side
 * by side in one array, a row's count known from its branch (numbers there, the rest in
 * `others`), and the groups' order found after the loop: per row one array written where three
 * were (counts, acc, others) and no test for a new group, measured 0.6-0.7× the loop over
 * separate arrays (docs/PERFORMANCE.md, "sqlgroup7"), and for the join, over its per-row codes,
 * 0.4× the loop that looked each row's code up and tested for a new group ("sqljoin8"). The
 * loops are functions of their own with nothing after the loop: V8 compiles a hot loop on the
 * stack (OSR) before the code after it has run, and that code then left the optimized loop on
 * every statement.
 */
function sumCodes(
  { rows, filter, rowCount: length, codes, isMasked, kept }: Walk,
  pass: Pass,
  values: Float64Array,
  kind: Uint8Array,
  hasSum: boolean,
): void {
  const { counts, acc, others, tally } = pass;
  let passed = rows ? rows.length : length;
  // A filter of one code is tested as that code (`status = 'PAID'`) where a sum is taken: the
  // accepted-codes table read per row was the two-table JOIN's dearest line (sqljoin7).
  const only = filter && hasSum ? onlyAccepted(filter.accepts) : -1;
  const listed = isMasked ? undefined : rows;
  if (!hasSum) {
    if (filter) passed = countFiltered(length, filter.codes, filter.accepts, codes, counts);
    else if (listed) countListed(listed, codes, counts);
    else countAll(length, codes, counts);
  } else {
    const cells = new Float64Array(counts.length * 2);
    if (filter && only >= 0)
      passed = sumOneCode(length, filter.codes, only, codes, values, kind, cells, others, tally);
    else if (filter)
      passed = sumFiltered(length, filter.codes, filter.accepts, codes, values, kind, cells, others, tally);
    else if (listed) sumListed(listed, codes, values, kind, cells, others, tally);
    else sumAll(length, codes, values, kind, cells, others, tally);
    for (let c = 0; c < counts.length; c++) {
      acc[c] = cells[c << 1]!;
      counts[c] = cells[(c << 1) + 1]! + others[c]!;
    }
  }
  tally[PASSED] = passed;
  const found = filter ? undefined : kept?.order;
  if (found) {
    pass.order = found.order;
    pass.firstRow = found.firstRow;
    tally[GROUPS] = found.groups;
    return;
  }
  pass.order = new Int32Array(counts.length);
  pass.firstRow = new Int32Array(counts.length);
  firstAppearances(listed, filter ?? NO_FILTER, filter !== undefined, length, codes, pass);
  if (kept && !filter) kept.order = { order: pass.order, firstRow: pass.firstRow, groups: tally[GROUPS]! };
}

function countAll(length: number, codes: Int32Array, counts: Float64Array): void {
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    if (c >= 0) counts[c]! += 1;
  }
}

function countListed(rows: Int32Array, codes: Int32Array, counts: Float64Array): void {
  for (let p = 0; p < rows.length; p++) {
    const c = codes[rows[p]!]!;
    if (c >= 0) counts[c]! += 1;
  }
}

/** The table's rows that pass a code filter (`WHERE status <> 'OPEN'`), counted; how many passed. */
function countFiltered(
  length: number,
  filterCodes: Int32Array,
  accepts: Uint8Array,
  codes: Int32Array,
  counts: Float64Array,
): number {
  let passed = 0;
  for (let i = 0; i < length; i++) {
    if (accepts[filterCodes[i]!] !== 1) continue;
    passed += 1;
    const c = codes[i]!;
    if (c >= 0) counts[c]! += 1;
  }
  return passed;
}

/** Per code c: cells[2c] the sum of its numbers, cells[2c + 1] how many. */
function sumAll(
  length: number,
  codes: Int32Array,
  values: Float64Array,
  kind: Uint8Array,
  cells: Float64Array,
  others: Float64Array,
  tally: Float64Array,
): void {
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    if (c < 0) continue;
    const s = values[i]!;
    if (s === s) {
      const at = c << 1;
      cells[at]! += s;
      cells[at + 1]! += 1;
    } else noNumber(c, i, others, kind, tally);
  }
}

/** sumAll over listed rows; alike on purpose: a flag tested per row costs (see `scan`). */
function sumListed(
  rows: Int32Array,
  codes: Int32Array,
  values: Float64Array,
  kind: Uint8Array,
  cells: Float64Array,
  others: Float64Array,
  tally: Float64Array,
): void {
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p]!;
    const c = codes[i]!;
    if (c < 0) continue;
    const s = values[i]!;
    if (s === s) {
      const at = c << 1;
      cells[at]! += s;
      cells[at + 1]! += 1;
    } else noNumber(c, i, others, kind, tally);
  }
}

/** sumAll over the rows that pass a code filter; how many passed. */
function sumFiltered(
  length: number,
  filterCodes: Int32Array,
  accepts: Uint8Array,
  codes: Int32Array,
  values: Float64Array,
  kind: Uint8Array,
  cells: Float64Array,
  others: Float64Array,
  tally: Float64Array,
): number {
  let passed = 0;
  for (let i = 0; i < length; i++) {
    if (accepts[filterCodes[i]!] !== 1) continue;
    passed += 1;
    const c = codes[i]!;
    if (c < 0) continue;
    const s = values[i]!;
    if (s === s) {
      const at = c << 1;
      cells[at]! += s;
      cells[at + 1]! += 1;
    } else noNumber(c, i, others, kind, tally);
  }
  return passed;
}

/** sumFiltered for a filter of one code, tested as the code itself. */
function sumOneCode(
  length: number,
  filterCodes: Int32Array,
  wanted: number,
  codes: Int32Array,
  values: Float64Array,
  kind: Uint8Array,
  cells: Float64Array,
  others: Float64Array,
  tally: Float64Array,
): number {
  let passed = 0;
  for (let i = 0; i < length; i++) {
    if (filterCodes[i] !== wanted) continue;
    passed += 1;
    const c = codes[i]!;
    if (c < 0) continue;
    const s = values[i]!;
    if (s === s) {
      const at = c << 1;
      cells[at]! += s;
      cells[at + 1]! += 1;
    } else noNumber(c, i, others, kind, tally);
  }
  return passed;
}

/** The one code a filter accepts (`status = 'PAID'`), or -1 when it accepts none or several. */
function onlyAccepted(accepts: Uint8Array): number {
  let only = -1;
  for (let c = 0; c < accepts.length; c++) {
    if (accepts[c] !== 1) continue;
    if (only >= 0) return -1;
    only = c;
  }
  return only;
}

/**
 * The groups' order of first appearance, found after the loop instead of tested per row: the
 * walked rows (those passing the filter, when there is one) are read again from the first until
 * every code counted has been met, which for a key of few values (a status) is a few rows, and
 * for any key at most one more pass of reads.
 */
function firstAppearances(
  rows: Int32Array | undefined,
  { codes: filterCodes, accepts }: NonNullable<Walk['filter']>,
  hasFilter: boolean,
  length: number,
  codes: Int32Array,
  { counts, order, firstRow, tally }: Pass,
): void {
  let left = 0;
  for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) left += 1;
  const met = new Uint8Array(counts.length);
  const walked = rows ? rows.length : length;
  for (let p = 0; p < walked && left > 0; p++) {
    const i = rows ? rows[p]! : p;
    if (hasFilter && accepts[filterCodes[i]!] !== 1) continue;
    const c = codes[i]!;
    if (c < 0 || met[c] === 1) continue;
    met[c] = 1;
    firstSeen(c, i, order, firstRow, tally);
    left -= 1;
  }
}

/**
 * Every other form in one loop (MIN and MAX, a filter over listed rows): for each walked row
 * (rows[p], or p itself), the filter's code test, the group's code, its count, and with `op` its
 * value added (SUM) or compared (MIN, MAX).
 */
function scanRows(
  rows: Int32Array,
  length: number,
  isList: boolean,
  filterCodes: Int32Array,
  accepts: Uint8Array,
  hasFilter: boolean,
  codes: Int32Array,
  { counts, order, firstRow, acc, others, tally }: Pass,
  values: Float64Array,
  kind: Uint8Array,
  op: number,
): void {
  let passed = 0;
  for (let p = 0; p < length; p++) {
    const i = isList ? rows[p]! : p;
    if (hasFilter && accepts[filterCodes[i]!] !== 1) continue;
    passed += 1;
    const c = codes[i]!;
    if (c < 0) continue;
    const n = counts[c]!;
    if (n === 0) firstSeen(c, i, order, firstRow, tally);
    counts[c] = n + 1;
    if (op === NONE) continue;
    const s = values[i]!;
    if (s !== s) noNumber(c, i, others, kind, tally);
    else if (op === SUM) acc[c]! += s;
    else {
      const best = acc[c]!;
      // NaN: no number in the group yet. Ties keep the first, as the general path does.
      if (best !== best || (op === MAX ? s > best : s < best)) acc[c] = s;
    }
  }
  tally[PASSED] = passed;
}
