import { POW10 } from '../values/arith';
import { isNum } from '../values/decimal';
import { isNull, type Value } from '../values/value';
import { type CodedStrings, NUMBER, type Numbers } from './column-stores';

/**
 * Forms of one column that GROUP BY and SUM/AVG read instead of its values. Columns sealed as
 * codes or numbers (column-stores.ts) give them with no decoding; any other column has them
 * built from its decoded values once and kept with them (ColumnarTable drops both together).
 */

/**
 * A column of strings as dictionary codes: code 0 is NULL or missing, every distinct string has
 * a code of its own. Grouping by codes is an array lookup per row where grouping by values is a
 * hash lookup per row.
 */
export interface Dictionary {
  codes: Int32Array;
  /** Codes in use, 0 (NULL) included. */
  size: number;
  /** strings[c]: code c's string, for 0 < c < size (a slot no row uses may hold anything else). */
  strings: readonly Value[];
  /** Code by string, made when a filter first asks (`codeOfString`), kept with the dictionary. */
  byString?: Map<string, number>;
}

/**
 * The code of a string (0, which no condition accepts, when no row holds it): a filter's
 * literal found in the dictionary's strings, not in a decoded copy of the column.
 */
export function codeOfString(dictionary: Dictionary, text: string): number {
  let byString = dictionary.byString;
  if (!byString) {
    byString = new Map();
    const { strings, size } = dictionary;
    for (let c = 1; c < size; c++) {
      const s = strings[c];
      if (typeof s === 'string') byString.set(s, c);
    }
    dictionary.byString = byString;
  }
  return byString.get(text) ?? 0;
}

/**
 * Above this many distinct strings a dictionary saves little over hashing the values (and costs
 * 4 bytes a row to keep), so the column is grouped by its values.
 */
const DICTIONARY_MAX = 1 << 16;

/** Undefined when the column holds anything but strings, or too many distinct ones. */
export function buildDictionary(values: readonly Value[], rows: number): Dictionary | undefined {
  const codes = new Int32Array(rows);
  const ids = new Map<string, number>();
  const strings: Value[] = [undefined];
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (typeof v !== 'string') {
      if (isNull(v)) continue;
      return undefined;
    }
    let id = ids.get(v);
    if (id === undefined) {
      if (ids.size >= DICTIONARY_MAX) return undefined;
      id = ids.size + 1;
      ids.set(v, id);
      strings.push(v);
    }
    codes[i] = id;
  }
  return { codes, size: ids.size + 1, strings };
}

/**
 * A column of numbers as integers of one common scale (10^scale), for SUM and AVG: every value
 * survived `round(v · 10^scale) / 10^scale === v`, so adding the integers is exact as long as
 * the magnitudes added stay under SAFE_TOTAL, which the summing side checks for the rows it adds
 * (a join can add one row many times).
 */
export interface ScaledNumbers {
  scaled: Float64Array;
  /** Per row: 1 for a number, NOT_NUMBER for a value that is not one; anything else is none (missing or NULL). */
  kind: Uint8Array;
  scale: number;
}

export const NOT_NUMBER = 2;

/** Below 2^53 with room to spare: a sum of integers whose magnitudes add up to less is exact. */
export const SAFE_TOTAL = 4e15;

/**
 * Undefined when a value will not fit, a BigInt decimal or more than 15 decimals: those columns
 * are summed the slower exact way.
 */
export function buildScaledNumbers(values: readonly Value[], rows: number): ScaledNumbers | undefined {
  const kind = new Uint8Array(rows);
  let scale = 0;
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (typeof v !== 'number') {
      if (isNull(v)) continue;
      // A BigInt decimal (16+ digits) does not fit a double's integers.
      if (isNum(v)) return undefined;
      kind[i] = NOT_NUMBER;
      continue;
    }
    kind[i] = 1;
    while (Math.round(v * POW10[scale]!) / POW10[scale]! !== v) {
      scale += 1;
      if (scale > 15) return undefined;
    }
  }
  const p = POW10[scale]!;
  const scaled = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    if (kind[i] !== 1) continue;
    const v = values[i] as number;
    const s = Math.round(v * p);
    if (s / p !== v) return undefined;
    scaled[i] = s;
  }
  return { scaled, kind, scale };
}

/** A coded column's codes as a Dictionary: NULL's code read as 0, as buildDictionary does. */
export function codedDictionary(store: CodedStrings): Dictionary | undefined {
  const size = store.strings.length;
  if (size - 1 > DICTIONARY_MAX) return undefined;
  const stored = store.codes.subarray(0, store.rows);
  const codes = stored instanceof Int32Array && store.nullCode === 0 ? stored : Int32Array.from(stored);
  if (store.nullCode !== 0)
    for (let i = 0; i < codes.length; i++) if (codes[i] === store.nullCode) codes[i] = 0;
  // NULL's own code is read as 0, so its slot in strings is never a row's.
  return { codes, size, strings: store.strings };
}

/** A numeric column's scaled integers from its doubles, at the scale tracked as they arrived. */
export function scaledFromNumbers(store: Numbers): ScaledNumbers | undefined {
  const { rows, scale } = store;
  if (scale < 0) return undefined;
  const numbers = store.numbers.subarray(0, rows);
  const kind = store.kind.subarray(0, rows);
  if (scale === 0) return { scaled: numbers, kind, scale };
  const p = POW10[scale]!;
  const scaled = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    if (kind[i] !== NUMBER) continue;
    const v = numbers[i]!;
    const s = Math.round(v * p);
    if (s / p !== v) return undefined;
    scaled[i] = s;
  }
  return { scaled, kind, scale };
}

/**
 * A form read at some rows of its column (a derived table's column that is a plain column of
 * another table: late materialisation, result.ts): rows[i] is the source row of row i, -1 for
 * none (NULL's code, no number). Codes keep the source's numbering, so `size` is the source's.
 */
export function gatherDictionary(source: Dictionary | undefined, rows: Int32Array): Dictionary | undefined {
  return (
    source && {
      codes: gatherCodes(rows, source.codes, new Int32Array(rows.length)),
      size: source.size,
      strings: source.strings,
    }
  );
}

/** out[r] = codes[rows[r]], 0 where rows[r] is no row. */
export function gatherCodes(rows: Int32Array, codes: Int32Array, out: Int32Array): Int32Array {
  for (let r = 0; r < out.length; r++) {
    const i = rows[r]!;
    out[r] = i < 0 ? 0 : codes[i]!;
  }
  return out;
}

export function gatherScaled(source: ScaledNumbers | undefined, rows: Int32Array): ScaledNumbers | undefined {
  if (!source) return undefined;
  const scaled = new Float64Array(rows.length);
  const kind = new Uint8Array(rows.length);
  gatherNumbers(rows, source.scaled, source.kind, scaled, kind);
  return { scaled, kind, scale: source.scale };
}

function gatherNumbers(
  rows: Int32Array,
  fromScaled: Float64Array,
  fromKind: Uint8Array,
  scaled: Float64Array,
  kind: Uint8Array,
): void {
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    if (i < 0) continue;
    kind[r] = fromKind[i]!;
    scaled[r] = fromScaled[i]!;
  }
}

/** codes[i] where mask[i] is 1, 0 (no code) elsewhere: a column's codes within a kept list of rows. */
export function codesAt(mask: Uint8Array, codes: Int32Array): Int32Array {
  const out = new Int32Array(mask.length);
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out[i] = codes[i]!;
  return out;
}

/** A prefix mask (table.ts `prefixMask`) read at some rows: 0 where rows[i] is no row. */
export function gatherMask(source: Uint8Array | undefined, rows: Int32Array): Uint8Array | undefined {
  if (!source) return undefined;
  const mask = new Uint8Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    if (i >= 0) mask[r] = source[i]!;
  }
  return mask;
}
