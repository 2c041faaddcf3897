import { Buffer } from 'node:buffer';
import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { WireCursor, WireFormatError } from '../../resultsets/wire-cursor';
import { fromTagged, type Value } from '../values/value';
import { CodedStrings, ColdStringStore, ColdValues, type ColumnStore, Numbers } from './column-stores';

// Declared here, not imported: see wire-encoder.ts (an imported constant costs a load per compare under tsx).
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const TAG_S = 0x53;
const TAG_N = 0x4e;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
// The stores' classes, read once: where modules are compiled to CommonJS (tsx: the bench and the
// worker from sources; vitest) every use of an imported binding is a getter call, and the
// `instanceof` tests below run for every attribute of every item (measured: read once, the
// one-table load took 0.79x the CPU under tsx). The built app has no such getter.
const CodedStore = CodedStrings;
const NumberStore = Numbers;
const ColdStringsStore = ColdStringStore;
const ColdValuesStore = ColdValues;

/** What the wire path writes into: ColumnarTable's column (table.ts). */
export interface WireColumn {
  /** Rows past `store.rows`, as values (a value the store's form does not take, and every row after it). */
  values: Value[];
  count: number;
  store?: ColumnStore;
  /** The last row written, to refuse an item naming an attribute twice. */
  lastRow: number;
  /**
   * The bytes of the column's recently coded strings and their codes, while its store is coded;
   * null: they did not repeat.
   */
  recent?: RecentCodes | null;
}

/** Slots of recently coded strings per column, and the longest string a slot keeps. */
const RECENT_SLOTS = 8;
const RECENT_BYTES = 32;
/** Lookups after which a column that found fewer than half of its strings stops looking. */
const RECENT_TRIAL = 1024;

/**
 * The last few strings a coded column met, as their bytes, with their codes: a string whose bytes
 * are in a slot is coded with no JS string made and no `Map` lookup. Ids and types repeat row
 * after row (PK and userId ten times in a row on the one-table shape), and a status or country
 * cycles through a handful of values, which the last string alone never caught. A column whose
 * strings are mostly new (customer ids in orders, names) stops looking after RECENT_TRIAL tries.
 * Rejected earlier: a hash table of every string's bytes (FNV + compare), 1.05x the CPU
 * (docs/PERFORMANCE.md, sqlfirst4).
 */
export class RecentCodes {
  private readonly bytes = Buffer.alloc(RECENT_SLOTS * RECENT_BYTES);
  private readonly lengths = new Int32Array(RECENT_SLOTS).fill(-1);
  private readonly codes = new Int32Array(RECENT_SLOTS);
  private last = 0;
  private next = 0;
  lookups = 0;
  hits = 0;

  /** The code of the string spelled by body[from, to), if a slot holds those bytes; -1 otherwise. */
  find(body: Buffer, from: number, to: number): number {
    const length = to - from;
    const { bytes, lengths } = this;
    // From the slot that answered last: a run of one id is found at the first compare.
    for (let k = 0, slot = this.last; k < RECENT_SLOTS; k++, slot = (slot + 1) % RECENT_SLOTS) {
      if (lengths[slot] !== length) continue;
      const base = slot * RECENT_BYTES;
      let i = 0;
      while (i < length && bytes[base + i] === body[from + i]) i++;
      if (i < length) continue;
      this.last = slot;
      this.hits++;
      return this.codes[slot]!;
    }
    return -1;
  }

  /** Keeps body[from, to) as `code`'s bytes, in place of the oldest slot. */
  keep(body: Buffer, from: number, to: number, code: number): void {
    if (to - from > RECENT_BYTES) return;
    const slot = this.next;
    this.next = (slot + 1) % RECENT_SLOTS;
    body.copy(this.bytes, slot * RECENT_BYTES, from, to);
    this.lengths[slot] = to - from;
    this.codes[slot] = code;
    this.last = slot;
  }
}

/** Puts `value` at `row` of a column whose rows past its store are plain values. */
export function pushValue(column: WireColumn, row: number, value: Value): void {
  const values = column.values;
  const base = column.store?.rows ?? 0;
  while (base + values.length < row) values.push(undefined);
  values.push(value);
  column.count += 1;
}

interface KnownName {
  bytes: Buffer;
  column: WireColumn;
}
/** Per position in an item, the names seen there: kept by the table from page to page. */
export type WireNames = KnownName[][];
/** Names remembered per position in an item: a few item types share a table. */
const NAMES_PER_POSITION = 4;

/**
 * Reads a page's Items from the response bytes straight into the table's column stores, in one
 * pass, with no tagged objects: the bytes of a string DynamoDB sent without escapes are copied
 * into a compressed column as they are, a repeating string becomes one short string and a code,
 * a number's text becomes a double, and a nested value's JSON text is kept as it came. An
 * attribute's name is matched against the bytes of the name seen at its position before, so
 * no string is made for it either. Anything else (a value that does not fit its column's form,
 * a member the tagged form does not have) is parsed with JSON.parse and `fromTagged`, as the
 * whole page was before, and sealed with the page (ColumnarTable.seal).
 *
 * Measured: 0.59–0.70× the CPU time of parsing the chunks with JSON.parse and sealing the
 * values on the one-table shape, 0.55–0.64× on the two tables (docs/PERFORMANCE.md, "Ingest
 * from the response bytes, one pass").
 */
export class WireColumns extends WireCursor {
  constructor(
    body: Buffer,
    /** The table's column of that name (made when new). */
    private readonly columnNamed: (name: string) => WireColumn,
    private readonly known: WireNames,
  ) {
    super(body);
  }

  /**
   * Reads the Items array whose `[` is at `from` (wire-page.ts WireItemsReader) into rows from
   * `firstRow` on, keeping at most `max` of its items (the rest are only skipped); answers the
   * position past its `]`, how many items it held and how many were kept.
   */
  readItems(from: number, firstRow: number, max: number): { end: number; count: number; kept: number } {
    const body = this.body;
    this.pos = from;
    this.expect(OPEN_BRACKET);
    let count = 0;
    if (!this.isEmpty(CLOSE_BRACKET))
      do {
        if (count < max) this.item(firstRow + count);
        else {
          this.skipSpace();
          if (body[this.pos] !== OPEN_BRACE) this.fail('expected an item (an object)');
          this.skipValue();
        }
        count++;
      } while (!this.next(CLOSE_BRACKET));
    return { end: this.pos, count, kept: Math.min(count, max) };
  }

  private item(row: number): void {
    this.expect(OPEN_BRACE);
    if (this.isEmpty(CLOSE_BRACE)) return;
    let position = 0;
    do {
      const column = this.name(position++);
      if (column.lastRow === row)
        throw new WireFormatError(
          `Unexpected DynamoDB response at byte ${this.pos}: an item names an attribute twice.`,
        );
      column.lastRow = row;
      this.expect(COLON);
      this.value(column, row);
    } while (!this.next(CLOSE_BRACE));
  }

  private name(position: number): WireColumn {
    this.expect(QUOTE);
    const body = this.body;
    const from = this.pos;
    const to = this.stringEnd();
    this.pos = to + 1;
    const known = (this.known[position] ??= []);
    const length = to - from;
    for (let k = 0; k < known.length; k++) {
      const { bytes, column } = known[k]!;
      if (bytes.length !== length) continue;
      let i = 0;
      while (i < length && bytes[i] === body[from + i]) i++;
      if (i === length) return column;
    }
    const name = this.escaped ? this.escapedText(from, to) : body.toString('utf8', from, to);
    const column = this.columnNamed(name);
    if (known.length === NAMES_PER_POSITION) known.shift();
    known.push({ bytes: Buffer.from(body.subarray(from, to)), column });
    return column;
  }

  /** One attribute's tagged value: `{"S":"…"}`, `{"N":"…"}`, or any other, at `row` of `column`. */
  private value(column: WireColumn, row: number): void {
    this.skipSpace();
    const start = this.pos;
    const body = this.body;
    // Rows past a value the store did not take stay values, in order, until the page is sealed.
    const store = column.values.length === 0 ? column.store : undefined;
    if (body[start] === OPEN_BRACE && body[start + 1] === QUOTE && body[start + 3] === QUOTE) {
      const tag = body[start + 2];
      if ((tag === TAG_S || tag === TAG_N) && body[start + 4] === COLON && body[start + 5] === QUOTE) {
        this.pos = start + 6;
        const to = this.stringEnd();
        if (body[to + 1] === CLOSE_BRACE) {
          this.pos = to + 2;
          if (this.putScalar(column, store, row, start, to)) return;
        }
      }
    }
    this.pos = start;
    const [from, to] = this.skipValue();
    // A nested value (or NULL, BOOL, a set, binary): its tagged JSON text is what ColdValues keeps.
    if (
      store instanceof ColdValuesStore ||
      (column.store === undefined && column.values.length === 0 && !isNull(body, from))
    ) {
      const cold = store instanceof ColdValuesStore ? store : (column.store = new ColdValuesStore());
      cold.cold.putBytes(row, body, from, to);
      column.count += 1;
      return;
    }
    if (isNull(body, from) && (store instanceof CodedStore || store instanceof NumberStore)) {
      store.put(row, null);
      column.count += 1;
      return;
    }
    let tagged: AttributeValue;
    try {
      tagged = JSON.parse(body.toString('utf8', from, to)) as AttributeValue;
    } catch (error) {
      throw new WireFormatError(
        `Unexpected DynamoDB response between bytes ${from} and ${to}: an attribute's value is not valid JSON (${(error as Error).message}).`,
      );
    }
    pushValue(column, row, fromTagged(tagged));
  }

  /**
   * `{"S":"…"}` or `{"N":"…"}` from `start`, its text ending at `to`: false when the column's form
   * does not take it.
   */
  private putScalar(
    column: WireColumn,
    store: ColumnStore | undefined,
    row: number,
    start: number,
    to: number,
  ): boolean {
    const from = start + 6;
    const body = this.body;
    const fresh = column.store === undefined && column.values.length === 0;
    if (store instanceof ColdValuesStore) store.cold.putBytes(row, body, start, to + 2);
    else if (body[start + 2] === TAG_N) {
      const n = this.plainNumber(from, to);
      if (n === undefined) return false;
      const target = fresh ? (column.store = new NumberStore()) : store;
      if (!(target instanceof NumberStore)) return false;
      target.put(row, n);
    } else {
      const target = fresh ? (column.store = new CodedStore()) : store;
      if (target === undefined) {
        // Rows past a value the store did not take stay values until the page is sealed.
        pushValue(column, row, this.stringAt(from, to));
        return true;
      }
      if (target instanceof ColdStringsStore) {
        if (this.escaped) target.cold.putString(row, this.stringAt(from, to));
        else target.cold.putBytes(row, body, from, to);
      } else if (!(target instanceof CodedStore)) return false;
      else {
        // A column's coded store is only ever replaced by a compressed one (table.ts `seal`), which
        // drops the slots with it: while the store is coded, its slots' codes are its codes.
        const recent = column.recent === undefined ? (column.recent = new RecentCodes()) : column.recent;
        if (recent === null) target.put(row, this.stringAt(from, to));
        else {
          const code = recent.find(body, from, to);
          if (code >= 0) target.putCode(row, code);
          else recent.keep(body, from, to, target.put(row, this.stringAt(from, to)));
          if (++recent.lookups === RECENT_TRIAL && recent.hits * 2 < RECENT_TRIAL) column.recent = null;
        }
      }
    }
    column.count += 1;
    return true;
  }

  /**
   * Number text of up to 15 characters, digits with a sign and a point, as parseDynamoNumber
   * reads it: the digits as an integer divided by a power of ten (both exact doubles, so the
   * quotient is the correctly rounded decimal, as Number(text) is). Undefined for anything else.
   */
  private plainNumber(from: number, to: number): number | undefined {
    if (to - from > 15 || to === from) return undefined;
    const body = this.body;
    let i = from;
    const negative = body[i] === MINUS;
    if (negative) i++;
    let digits = 0;
    let mantissa = 0;
    let places = -1;
    for (; i < to; i++) {
      const c = body[i]!;
      if (c >= ZERO && c <= NINE) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        if (places >= 0) places++;
      } else if (c === POINT && places < 0) places = 0;
      else return undefined;
    }
    if (digits === 0) return undefined;
    const n = places > 0 ? mantissa / POW10[places]! : mantissa;
    // + 0: -0 is 0, as parseDynamoNumber answers.
    return (negative ? -n : n) + 0;
  }

  private stringAt(from: number, to: number): string {
    return this.escaped ? this.escapedText(from, to) : this.body.toString('utf8', from, to);
  }
}

/** Whether the value at `from` is `{"NULL":true}` as DynamoDB sends it. */
function isNull(body: Buffer, from: number): boolean {
  return (
    body[from + 2] === TAG_N &&
    body[from + 6] === QUOTE &&
    body.toString('latin1', from, from + 13) === '{"NULL":true}'
  );
}
