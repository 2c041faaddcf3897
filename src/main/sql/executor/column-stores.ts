import { POW10 } from '../values/arith';
import { isNum, numToString } from '../values/decimal';
import { DMap, fromTagged, toTagged, type Value } from '../values/value';
import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { COLD_BLOCK_ROWS, ColdStrings } from './cold-strings';

/**
 * How ColumnarTable holds a column's sealed rows, chosen as pages arrive so that a statement
 * finds the form it reads ready and never decodes a copy of the column first:
 *
 * - CodedStrings: strings that repeat (statuses, types, user ids, dates) as one small code per
 *   row and each distinct string once: GROUP BY reads the codes, a statement reads
 *   `strings[code]`. No per-row string, no compressed block to open.
 * - Numbers: doubles in a Float64Array with a kind byte per row, and the common decimal scale
 *   SUM/AVG need, tracked as the numbers arrive.
 * - ColdStrings (cold-strings.ts): free text and unique ids, compressed in blocks.
 * - ColdValues: anything else (lists, maps, sets, a column that mixes types), each row's tagged
 *   form as JSON text in compressed blocks: a list of two strings costs ~65 bytes as JS values.
 *
 * `take` seals rows into the store; it answers how many of the rows given it took from the
 * front, or -1 when a value does not fit the form (ColumnarTable then moves the column on).
 */
export interface ColumnStore {
  readonly rows: number;
  /** The read is over: rows kept aside for a full block are closed as one (ColdStrings.finish). */
  finish?(): void;
  take(values: readonly Value[]): number;
  /** Every sealed row, in order. */
  decode(): Value[];
}

/** Kind byte per row of Numbers (and of ScaledNumbers.kind, which shares it). */
export const MISSING = 0;
export const NUMBER = 1;
export const NULL_VALUE = 3;

/** A growable typed array: capacity grows by a quarter, so the slack stays small at 1M rows. */
function grow<T extends Uint8Array | Uint16Array | Int32Array | Float64Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(
    Math.max(needed, 1024, array.length + (array.length >> 2)),
  );
  next.set(array);
  return next;
}

/** More distinct strings than this, or than half the rows holding one, and codes stop paying. */
const CODED_MAX = 1 << 20;
/** Rows with a string seen before the half-the-rows rule applies (a first page is no sample). */
const CODED_SAMPLE = COLD_BLOCK_ROWS;
/**
 * Long strings that do not repeat are free text, and short ones that have not repeated once in
 * a first page are ids (SK, orderId, email): judged from that page, so they are not hashed into
 * the codes for a whole sample and then decoded again to be compressed (measured: 0.88x the
 * one-table load's CPU). Scan pages come in hash order, so n rows without a repeat are unlikely
 * unless a column has more than ~n²/2 distinct values: a first page of 256 rows or more rules
 * out only a dictionary the half-the-rows rule would keep for reads past ~65,000 rows, and a
 * first page of 4,096 (the full sample) meets the old rule.
 */
const LONG_SAMPLE = 256;
const LONG_CHARS = 64;

export class CodedStrings implements ColumnStore {
  rows = 0;
  codes: Uint8Array | Uint16Array | Int32Array = new Uint8Array(0);
  /** strings[code]: code 0 is a missing value; NULL, if any, has a code of its own. */
  readonly strings: Value[] = [undefined];
  nullCode = 0;
  private readonly ids = new Map<string, number>();
  private present = 0;
  private distinctChars = 0;

  take(values: readonly Value[]): number {
    const first = this.rows;
    this.codes = grow(this.codes, first + values.length);
    let row = first;
    for (const v of values) {
      // Rows past `rows` were never written: a missing value's code 0 is already there.
      if (typeof v === 'string' || v === null) this.put(row, v);
      else if (v !== undefined) break;
      row += 1;
    }
    this.rows = row;
    const taken = row - first;
    const distinct = this.ids.size;
    if (taken < values.length) return -1;
    const isSample =
      this.present >= CODED_SAMPLE ||
      (this.present >= LONG_SAMPLE &&
        (this.distinctChars > LONG_CHARS * distinct || distinct === this.present));
    if (distinct > CODED_MAX || (isSample && distinct * 2 > this.present)) return -1;
    return taken;
  }

  /**
   * Row `row` as `s` (or NULL), rows before it not put being missing: the wire path's write, one
   * row at a time. The half-the-rows rule is checked when the page is sealed (`take([])`).
   */
  put(row: number, s: string | null): number {
    let codes = grow(this.codes, row + 1);
    let code: number;
    if (s === null) {
      if (this.nullCode === 0) {
        this.nullCode = this.strings.length;
        this.strings.push(null);
      }
      code = this.nullCode;
    } else {
      const id = this.ids.get(s);
      if (id === undefined) {
        code = this.strings.length;
        this.ids.set(s, code);
        this.distinctChars += s.length;
        this.strings.push(s);
        if (code > 0xffff && !(codes instanceof Int32Array)) codes = Int32Array.from(codes);
        else if (code > 0xff && codes instanceof Uint8Array) codes = Uint16Array.from(codes);
      } else code = id;
      this.present += 1;
    }
    codes[row] = code;
    this.codes = codes;
    this.rows = row + 1;
    return code;
  }

  /** Row `row` as a string already coded (`code` from `put`). */
  putCode(row: number, code: number): void {
    const codes = (this.codes = grow(this.codes, row + 1));
    codes[row] = code;
    if (code !== this.nullCode) this.present += 1;
    this.rows = row + 1;
  }

  /** Sets `mask[row] = 1` for each row whose string begins with `prefix`: one test per distinct string. */
  prefixMask(prefix: string, mask: Uint8Array): void {
    const { codes, strings } = this;
    const accepts = new Uint8Array(strings.length);
    for (let code = 1; code < strings.length; code++) {
      const s = strings[code];
      if (typeof s === 'string' && s.startsWith(prefix)) accepts[code] = 1;
    }
    for (let i = 0; i < this.rows; i++) if (accepts[codes[i]!] === 1) mask[i] = 1;
  }

  decode(): Value[] {
    const { codes, strings } = this;
    const out = new Array<Value>(this.rows);
    for (let i = 0; i < this.rows; i++) out[i] = strings[codes[i]!];
    return out;
  }
}

export class Numbers implements ColumnStore {
  rows = 0;
  numbers = new Float64Array(0);
  kind = new Uint8Array(0);
  /** Decimals the numbers need (SUM/AVG add them as integers of 10^scale); -1: more than 15. */
  scale = 0;

  take(values: readonly Value[]): number {
    const first = this.rows;
    this.numbers = grow(this.numbers, first + values.length);
    this.kind = grow(this.kind, first + values.length);
    let row = first;
    for (const v of values) {
      // A missing value's kind (0) is already there; a BigInt decimal or a string stops the
      // take: the rows taken so far stay as they are, the caller moves on.
      if (typeof v === 'number' || v === null) this.put(row, v);
      else if (v !== undefined) {
        this.rows = row;
        return -1;
      }
      row += 1;
    }
    this.rows = row;
    return values.length;
  }

  /** Row `row` as `n` (or NULL), rows before it not put being missing: the wire path's write. */
  put(row: number, n: number | null): void {
    const numbers = (this.numbers = grow(this.numbers, row + 1));
    const kind = (this.kind = grow(this.kind, row + 1));
    if (n === null) kind[row] = NULL_VALUE;
    else {
      numbers[row] = n;
      kind[row] = NUMBER;
      let scale = this.scale;
      while (scale >= 0 && Math.round(n * POW10[scale]!) / POW10[scale]! !== n)
        scale = scale < 15 ? scale + 1 : -1;
      this.scale = scale;
    }
    this.rows = row + 1;
  }

  valueAt(i: number): Value {
    const k = this.kind[i];
    return k === NUMBER ? this.numbers[i] : k === NULL_VALUE ? null : undefined;
  }

  decode(): Value[] {
    const out = new Array<Value>(this.rows);
    for (let i = 0; i < this.rows; i++) out[i] = this.valueAt(i);
    return out;
  }
}

/** Strings (or absences), compressed in blocks as they fill (cold-strings.ts). */
export class ColdStringStore implements ColumnStore {
  readonly cold = new ColdStrings();

  finish(): void {
    this.cold.finish();
  }
  get rows(): number {
    return this.cold.rows;
  }

  take(values: readonly Value[]): number {
    for (const v of values) if (v !== undefined && typeof v !== 'string') return -1;
    this.cold.append(values as readonly (string | undefined)[]);
    return values.length;
  }

  decode(): Value[] {
    return this.cold.decode();
  }

  prefixMask(prefix: string, mask: Uint8Array): void {
    this.cold.prefixMask(prefix, mask);
  }
}

/** Any values, each row's tagged form as JSON text, compressed in blocks as they fill. */
export class ColdValues implements ColumnStore {
  /** The wire path writes a value's tagged JSON text from the response body (`putBytes`). */
  readonly cold = new ColdStrings();

  finish(): void {
    this.cold.finish();
  }
  get rows(): number {
    return this.cold.rows;
  }

  take(values: readonly Value[]): number {
    this.cold.append(values.map((v) => (v === undefined ? undefined : taggedText(v))));
    return values.length;
  }

  decode(): Value[] {
    // JSON.parse defines `__proto__` as an own key and fromTagged keeps it one: names stay data.
    return this.cold
      .decode()
      .map((text) => (text === undefined ? undefined : fromTagged(JSON.parse(text) as AttributeValue)));
  }
}

/** The form for a column whose first value is `first`. */
export function storeFor(first: Value): ColumnStore {
  if (typeof first === 'string') return new CodedStrings();
  if (typeof first === 'number') return new Numbers();
  return new ColdValues();
}

/**
 * JSON.stringify(toTagged(v)), written out directly for what columns of nested values mostly
 * hold (lists and maps of strings and numbers): building the tagged objects first cost more
 * than compressing the text (measured: ColdValues was a sixth of the one-table shape's load).
 */
function taggedText(v: Value): string {
  if (v === null || v === undefined) return '{"NULL":true}';
  if (typeof v === 'string') return `{"S":${JSON.stringify(v)}}`;
  if (typeof v === 'boolean') return v ? '{"BOOL":true}' : '{"BOOL":false}';
  // A number's text is digits, a sign, a point and an exponent: nothing JSON escapes.
  if (isNum(v)) return `{"N":"${numToString(v)}"}`;
  if (Array.isArray(v)) {
    let text = '{"L":[';
    for (let i = 0; i < v.length; i++) text += (i === 0 ? '' : ',') + taggedText(v[i]);
    return `${text}]}`;
  }
  if (v instanceof DMap) {
    let text = '{"M":{';
    let first = true;
    for (const name of Object.keys(v.entries)) {
      const entry = v.entries[name];
      if (entry === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(name)}:${taggedText(entry)}`;
      first = false;
    }
    return `${text}}}`;
  }
  return JSON.stringify(toTagged(v));
}
