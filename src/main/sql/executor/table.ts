import type { Buffer } from 'node:buffer';
import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { splitWirePage } from '../../dynamo/query/wire-page';
import { fromSdkValue, fromTagged, type Value } from '../values/value';
import {
  CodedStrings,
  ColdStringStore,
  ColdValues,
  type ColumnStore,
  Numbers,
  NULL_VALUE,
  NUMBER,
  storeFor,
} from './column-stores';
import {
  buildDictionary,
  buildScaledNumbers,
  codesAt,
  codedDictionary,
  type Dictionary,
  gatherDictionary,
  gatherMask,
  gatherScaled,
  scaledFromNumbers,
  type ScaledNumbers,
} from './column-views';
import { identityRows } from './frame';
import { pushValue, type WireColumn, WireColumns, type WireNames } from './wire-columns';

interface Column extends WireColumn {
  /** Rows from `store.rows` on (all rows while no form is chosen, and in derived tables). */
  values: Value[];
  /** Non-missing values, for `SELECT *` column order and autocomplete. */
  count: number;
  /** The sealed rows in the form chosen for them as pages arrived (column-stores.ts). */
  store?: ColumnStore;
  /** The whole column decoded, while statements read it. */
  hot?: Value[];
  /** Built on first use, dropped with `hot`; null: the column does not fit. */
  dictionary?: Dictionary | null;
  scaled?: ScaledNumbers | null;
  /** The coded form read as it is (`codedStrings`); null: the column is not coded. */
  coded?: CodedView | null;
  /** Prefix masks read from the stored form (`prefixMask`), by prefix; dropped with `hot`. */
  prefixes?: Map<string, Uint8Array>;
  /** The rows each of those masks holds (`prefixRows`), with the mask they were read from. */
  prefixRows?: Map<string, { mask: Uint8Array; rows: Int32Array }>;
  /** A derived table's column that is another table's column at some rows (`fromColumns`). */
  gathered?: GatheredColumn;
}

/**
 * Late materialisation: a derived table's column that is a plain column of another table is
 * kept as that table's column and the row numbers it reads (-1: none), not copied into values.
 * Its codes, scaled integers and prefix masks are the source's read at those rows; its values
 * are gathered only when something asks for them.
 */
export interface GatheredColumn {
  from: ColumnarTable;
  attr: string;
  rows: Int32Array;
}

/** Prefixes kept per column: an entity view's condition is one; a few views of one table, a few. */
const PREFIXES_KEPT = 8;

/**
 * A coded string column's stored codes and `strings[code]` (code 0 missing; NULL, if any, has a
 * code of its own), for its first `rows` rows: any number of distinct strings, unlike a
 * Dictionary, because nothing is copied.
 */
export interface CodedView {
  codes: Uint8Array | Uint16Array | Int32Array;
  strings: readonly Value[];
  rows: number;
}

/** Reads one row of a column: what compiled expressions call instead of indexing a decoded copy. */
export type RowReader = (row: number) => Value;

/**
 * Fetched items held column by column, one store per top-level attribute, `undefined` where an
 * item lacks it. Columns make a scan of one attribute a tight loop, and the tagged item objects
 * can be dropped as soon as a page is appended (they cost several times the data). A column
 * that appears late is padded once, so arrays stay dense.
 *
 * Each page's rows are sealed into the form of their column (column-stores.ts): repeating
 * strings as codes, numbers as doubles, free text and nested values compressed. Coded and
 * numeric columns are read in place (`reader`, `dictionary`, `scaledNumbers`), so a statement's
 * first run decodes nothing for them; a compressed column is decoded once when a statement
 * reads it, and `coolDown` after the statement keeps decoded only the columns that statement
 * read, so the next statement of the same kind finds them.
 */
export class ColumnarTable {
  rowCount = 0;
  private readonly columns = new Map<string, Column>();
  /** Columns read since the last coolDown. */
  private readonly touched = new Set<string>();
  /** Attribute names the wire path has matched, by position in an item (wire-columns.ts). */
  private readonly wireNames: WireNames = [];
  /** `allRows()`, kept while the row count holds. */
  private allRowsKept?: Int32Array;
  /** Each list `prefixRows` keeps: its mask, and codes read within it (`codesWithin`), per codes array. */
  private readonly keptLists = new WeakMap<
    Int32Array,
    { mask: Uint8Array; within: WeakMap<Int32Array, Int32Array> }
  >();

  constructor(
    readonly name: string,
    /** Key attributes (table and index keys), shown first by `SELECT *`. */
    readonly keyAttributes: readonly string[] = [],
  ) {}

  column(name: string): readonly Value[] | undefined {
    const column = this.columns.get(name);
    if (!column) return undefined;
    this.touched.add(name);
    if (column.gathered) return (column.hot ??= gatheredValues(column.gathered));
    if (!column.store) return column.values;
    if (!column.hot) {
      const hot = column.store.decode();
      for (const value of column.values) hot.push(value);
      column.hot = hot;
    }
    return column.hot;
  }

  /** One row at a time without decoding a coded or numeric column; undefined: no such column. */
  reader(name: string): RowReader | undefined {
    const column = this.columns.get(name);
    if (!column) return undefined;
    const { store, gathered } = column;
    if (gathered && !column.hot) {
      this.touched.add(name);
      return gatheredReader(gathered);
    }
    if (store && !column.hot && column.values.length === 0) {
      this.touched.add(name);
      if (store instanceof CodedStrings) {
        const { codes, strings } = store;
        return (i) => strings[codes[i]!];
      }
      if (store instanceof Numbers) {
        const { numbers, kind } = store;
        return (i) => {
          const k = kind[i];
          return k === NUMBER ? numbers[i] : k === NULL_VALUE ? null : undefined;
        };
      }
    }
    const values = this.column(name)!;
    return (i) => values[i];
  }

  /**
   * Rows whose value is a string beginning with `prefix`, one byte a row, answered from a coded
   * or compressed string column's stored form without decoding it (an entity view's
   * `begins_with(SK, 'ORDER#')`: SK is unique, so it is kept compressed). Kept with the column
   * while its rows stay the same. Undefined for any other column: the caller tests decoded values.
   */
  prefixMask(name: string, prefix: string): Uint8Array | undefined {
    const column = this.columns.get(name);
    const store = column?.store;
    if (column?.gathered) {
      const { from, attr, rows } = column.gathered;
      return gatherMask(from.prefixMask(attr, prefix), rows);
    }
    if (!column || !(store instanceof CodedStrings || store instanceof ColdStringStore)) return undefined;
    this.touched.add(name);
    const masks = (column.prefixes ??= new Map<string, Uint8Array>());
    const found = masks.get(prefix);
    if (found?.length === this.rowCount) return found;
    const mask = new Uint8Array(this.rowCount);
    store.prefixMask(prefix, mask);
    // Rows past the sealed ones (a part block) are still plain values.
    const { values } = column;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'string' && v.startsWith(prefix)) mask[store.rows + i] = 1;
    }
    if (masks.size >= PREFIXES_KEPT) masks.delete(masks.keys().next().value!);
    masks.set(prefix, mask);
    return mask;
  }

  /**
   * Every row in order, kept while the row count holds, as `prefixRows` keeps an entity view's:
   * a subquery's binding with no condition of its own (a correlated AVG's, a derived top-N
   * query's) reads them all, and numbering 100,000 rows again in each statement was most of the
   * two-table top-N statement's fixed cost (docs/PERFORMANCE.md, sqlfixed2). Shared: frames are
   * never written in place.
   */
  allRows(): Int32Array {
    if (this.allRowsKept?.length !== this.rowCount) this.allRowsKept = identityRows(this.rowCount);
    return this.allRowsKept;
  }

  /** Whether `rows` is `allRows()` as kept now: a loop may then read the table's rows directly. */
  isAllRows(rows: Int32Array): boolean {
    return rows === this.allRowsKept && rows.length === this.rowCount;
  }

  /**
   * A column's codes (one per row: column-codes.ts) read only at `rows`, 0 (no code) at every
   * other row, when `rows` is a list this table keeps (`allRows`, an entity view's `prefixRows`);
   * undefined for any other list. A loop then walks every row testing nothing but a code, as the
   * hand-written side walks an entity's code column, instead of reading a row number per row.
   * Kept with the list, per codes array, so renewed when either is (docs/PERFORMANCE.md, sqlcorr2).
   */
  codesWithin(rows: Int32Array, codes: Int32Array): Int32Array | undefined {
    if (codes.length !== this.rowCount) return undefined;
    if (this.isAllRows(rows)) return codes;
    const list = this.keptLists.get(rows);
    if (list?.mask.length !== this.rowCount) return undefined;
    let within = list.within.get(codes);
    if (!within) list.within.set(codes, (within = codesAt(list.mask, codes)));
    return within;
  }

  /**
   * The rows `prefixMask` holds, in order: an entity view's rows (`begins_with(SK, 'ORDER#')`),
   * kept with its mask, so each statement over the view, and each binding of it in one
   * statement (a correlated subquery reads the view twice), starts from them instead of a pass
   * over the mask. The hand-written side knows each item's entity from its load; this pass was
   * a fifth of the one-table correlated statement (docs/PERFORMANCE.md, "sqlfirst4"). Shared:
   * frames are never written in place.
   */
  prefixRows(name: string, prefix: string): Int32Array | undefined {
    const mask = this.prefixMask(name, prefix);
    if (!mask) return undefined;
    const column = this.columns.get(name)!;
    const kept = (column.prefixRows ??= new Map<string, { mask: Uint8Array; rows: Int32Array }>());
    const found = kept.get(prefix);
    if (found?.mask === mask) return found.rows;
    const rows = rowsOfMask(mask);
    if (kept.size >= PREFIXES_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(prefix, { mask, rows });
    this.keptLists.set(rows, { mask, within: new WeakMap() });
    return rows;
  }

  /** The column as dictionary codes (GROUP BY); undefined unless it holds only strings. */
  dictionary(name: string): Dictionary | undefined {
    return this.view(name, 'dictionary', (store, gathered) =>
      gathered
        ? (gatherDictionary(gathered.from.dictionary(gathered.attr), gathered.rows) ??
          ((values) => buildDictionary(values, this.rowCount)))
        : store instanceof CodedStrings
          ? codedDictionary(store)
          : (values) => buildDictionary(values, this.rowCount),
    );
  }

  /** The column as scaled integers (SUM, AVG); undefined unless its numbers fit (column-views.ts). */
  scaledNumbers(name: string): ScaledNumbers | undefined {
    return this.view(name, 'scaled', (store, gathered) =>
      gathered
        ? (gatherScaled(gathered.from.scaledNumbers(gathered.attr), gathered.rows) ??
          ((values) => buildScaledNumbers(values, this.rowCount)))
        : store instanceof Numbers
          ? scaledFromNumbers(store)
          : (values) => buildScaledNumbers(values, this.rowCount),
    );
  }

  /**
   * The column's stored codes when every row is sealed as coded strings (no decoding): a join
   * numbers its keys from the distinct strings instead of hashing every row (join-keys.ts).
   * Kept until the column changes or cools down, so what is keyed by it goes with it.
   */
  codedStrings(name: string): CodedView | undefined {
    return this.view(name, 'coded', (store) =>
      store instanceof CodedStrings ? { codes: store.codes, strings: store.strings, rows: store.rows } : null,
    );
  }

  /** Whether every row of the column is sealed as numbers (scaledNumbers then decodes nothing). */
  holdsNumbers(name: string): boolean {
    const column = this.columns.get(name);
    if (column?.gathered) return column.gathered.from.holdsNumbers(column.gathered.attr);
    return column?.store instanceof Numbers && column.values.length === 0;
  }

  /**
   * A form kept with the column until it changes or cools down: read from the stored form when
   * `fromStore` can (it answers the form, or how to build it from the decoded values instead).
   */
  private view<K extends 'dictionary' | 'scaled' | 'coded'>(
    name: string,
    key: K,
    fromStore: (
      store: ColumnStore | undefined,
      gathered: GatheredColumn | undefined,
    ) => Column[K] | ((values: readonly Value[]) => Column[K]),
  ): Exclude<Column[K], null> | undefined {
    const column = this.columns.get(name);
    if (!column) return undefined;
    this.touched.add(name);
    if (column[key] === undefined) {
      // Rows not sealed yet (none after an append) are only in the decoded values.
      const form = fromStore(column.values.length === 0 ? column.store : undefined, column.gathered);
      column[key] = (typeof form === 'function' ? form(this.column(name)!) : form) ?? null;
    }
    return (column[key] ?? undefined) as Exclude<Column[K], null> | undefined;
  }

  /** Drops the decoded copies (and forms built from them) of columns no statement read since the last call. */
  coolDown(): void {
    for (const [name, column] of this.columns) if (!this.touched.has(name)) dropDecoded(column);
    this.touched.clear();
  }

  /** Column names, key attributes first, then by how many rows have them. */
  names(): string[] {
    const keys = this.keyAttributes.filter((k) => this.columns.has(k));
    const rest = [...this.columns.keys()].filter((k) => !keys.includes(k));
    rest.sort((a, b) => this.columns.get(b)!.count - this.columns.get(a)!.count);
    return [...keys, ...rest];
  }

  private columnNamed(name: string): Column {
    let column = this.columns.get(name);
    if (!column) {
      column = { values: [], count: 0, lastRow: -1, recent: undefined };
      this.columns.set(name, column);
    }
    return column;
  }

  private set(name: string, row: number, value: Value): void {
    pushValue(this.columnNamed(name), row, value);
  }

  /** Seals each column's new rows into its form; called after each appended page. */
  private seal(): void {
    for (const column of this.columns.values()) {
      dropDecoded(column);
      const base = column.store?.rows ?? 0;
      // Pad to the current row count so the sealed rows never end short of rows that exist.
      while (base + column.values.length < this.rowCount) column.values.push(undefined);
      if (!column.store) {
        const first = column.values.find((v) => v !== undefined && v !== null);
        if (first === undefined) continue;
        column.store = storeFor(first);
      }
      let taken = column.store.take(column.values);
      if (taken < 0) {
        // The form does not fit a value (or repeats too little to code): the column moves on to
        // a compressed form, once, with every row it has.
        const values = column.store.decode().concat(column.values.slice(column.store.rows - base));
        column.store = movedOn(column.store, values);
        column.recent = undefined;
        taken = column.store.take(values);
        column.values = values;
      }
      column.values = column.values.slice(taken);
    }
  }

  /** The read is over: each column's rows kept aside for a full compressed block are compressed. */
  finish(): void {
    for (const column of this.columns.values()) if (column.values.length === 0) column.store?.finish?.();
  }

  appendSdkItems(items: readonly Record<string, SdkValue>[]): void {
    for (const item of items) {
      const row = this.rowCount++;
      for (const name in item) this.set(name, row, fromSdkValue(item[name]!));
    }
    this.seal();
  }

  /**
   * A page's Items array, whose `[` is at `from` in the response bytes, read straight into the
   * columns (wire-columns.ts), at most `max` of its items kept: the SQL fetch's WireItemsReader.
   */
  readWireItems(body: Buffer, from: number, max = Infinity): { end: number; count: number; kept: number } {
    const reader = new WireColumns(body, (name) => this.columnNamed(name), this.wireNames);
    const read = reader.readItems(from, this.rowCount, max);
    this.rowCount += read.kept;
    this.seal();
    return read;
  }

  /** A whole response body's Items, the SQL fetch's way (the warm-up, benchmarks, tests). */
  appendWirePage(body: Buffer): void {
    splitWirePage(body, (bytes, from) => this.readWireItems(bytes, from));
  }

  /** At most `max` of the items, already parsed (GetItem, a page the SDK parsed, local data). */
  appendTaggedItems(items: Iterable<Item>, max = Infinity): void {
    let taken = 0;
    for (const item of items) {
      if (taken++ >= max) break;
      const row = this.rowCount++;
      for (const name of Object.keys(item)) this.set(name, row, fromTagged(item[name]!));
    }
    this.seal();
  }

  /** A derived table (subquery in FROM, aggregation output) from ready-made or gathered columns. */
  static fromColumns(
    name: string,
    columns: [string, Value[] | GatheredColumn][],
    rowCount: number,
  ): ColumnarTable {
    const table = new ColumnarTable(name);
    table.rowCount = rowCount;
    for (const [column, values] of columns)
      table.columns.set(
        column,
        Array.isArray(values)
          ? { values, count: rowCount, lastRow: -1 }
          : { values: [], count: rowCount, lastRow: -1, gathered: values },
      );
    return table;
  }
}

/** Coded strings that repeat too little go compressed; anything that mixes types, as tagged text. */
function movedOn(from: ColumnStore, values: readonly Value[]): ColumnStore {
  const onlyStrings =
    !(from instanceof Numbers) && values.every((v) => v === undefined || typeof v === 'string');
  return onlyStrings ? new ColdStringStore() : new ColdValues();
}

function gatheredReader({ from, attr, rows }: GatheredColumn): RowReader {
  const read = from.reader(attr);
  if (!read) return () => undefined;
  return (i) => {
    const row = rows[i]!;
    return row < 0 ? undefined : read(row);
  };
}

function gatheredValues(gathered: GatheredColumn): Value[] {
  const read = gatheredReader(gathered);
  const values = new Array<Value>(gathered.rows.length);
  for (let i = 0; i < values.length; i++) values[i] = read(i);
  return values;
}

function dropDecoded(column: Column): void {
  column.hot = undefined;
  column.dictionary = undefined;
  column.scaled = undefined;
  column.coded = undefined;
  column.prefixes = undefined;
  column.prefixRows = undefined;
}

/** The rows where `mask` is 1, in order. */
function rowsOfMask(mask: Uint8Array): Int32Array {
  let count = 0;
  for (let i = 0; i < mask.length; i++) count += mask[i]!;
  const rows = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1) rows[n++] = i;
  return rows;
}
