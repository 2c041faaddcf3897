import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { fromSdkValue, fromTagged, type Value } from '../values/value';
import { COLD_BLOCK_ROWS, ColdStrings } from './cold-strings';
import { buildDictionary, buildScaledNumbers, type Dictionary, type ScaledNumbers } from './column-views';

interface Column {
  /** Rows from `cold.rows` on (all rows when nothing is sealed). */
  values: Value[];
  /** Non-missing values, for `SELECT *` column order and autocomplete. */
  count: number;
  /** Only strings so far: full blocks of rows can be sealed compressed. */
  isStrings: boolean;
  cold?: ColdStrings;
  /** The whole column decoded, while statements read it. */
  hot?: Value[];
  /** Built from the values on first use, dropped with `hot`; null: the column does not fit. */
  dictionary?: Dictionary | null;
  scaled?: ScaledNumbers | null;
}

/**
 * Fetched items held column by column: one JS array per top-level attribute, `undefined` where
 * an item lacks it. Columns make a scan of one attribute a tight loop over one array, and the
 * tagged item objects can be dropped as soon as a page is appended (they cost several times
 * the data). A column that appears late is padded once, so arrays stay dense (no holes,
 * which would push V8 into slow dictionary elements).
 *
 * String columns are sealed compressed in blocks as pages arrive (ColdStrings), so the text of
 * attributes no statement reads costs its compressed bytes, not a JS string per item. A
 * statement that reads a column decodes it once; `coolDown` after the statement keeps decoded
 * only the columns that statement read, so the next statement of the same kind finds them.
 */
export class ColumnarTable {
  rowCount = 0;
  private readonly columns = new Map<string, Column>();
  /** Columns read since the last coolDown. */
  private readonly touched = new Set<string>();

  constructor(
    readonly name: string,
    /** Key attributes (table and index keys), shown first by `SELECT *`. */
    readonly keyAttributes: readonly string[] = [],
  ) {}

  column(name: string): readonly Value[] | undefined {
    const column = this.columns.get(name);
    if (!column) return undefined;
    this.touched.add(name);
    if (!column.cold) return column.values;
    if (!column.hot) {
      const hot: Value[] = column.cold.decode();
      for (const value of column.values) hot.push(value);
      column.hot = hot;
    }
    return column.hot;
  }

  /** The column as dictionary codes (GROUP BY); undefined unless it holds only strings. */
  dictionary(name: string): Dictionary | undefined {
    const values = this.column(name);
    const column = this.columns.get(name);
    if (!values || !column) return undefined;
    if (column.dictionary === undefined) column.dictionary = buildDictionary(values, this.rowCount) ?? null;
    return column.dictionary ?? undefined;
  }

  /** The column as scaled integers (SUM, AVG); undefined unless its numbers fit (column-views.ts). */
  scaledNumbers(name: string): ScaledNumbers | undefined {
    const values = this.column(name);
    const column = this.columns.get(name);
    if (!values || !column) return undefined;
    if (column.scaled === undefined) column.scaled = buildScaledNumbers(values, this.rowCount) ?? null;
    return column.scaled ?? undefined;
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

  private set(name: string, row: number, value: Value): void {
    let column = this.columns.get(name);
    if (!column) {
      column = { values: [], count: 0, isStrings: true };
      this.columns.set(name, column);
    }
    if (column.isStrings && typeof value !== 'string') {
      column.isStrings = false;
      // A column that turns out to mix types goes back to one plain array.
      if (column.cold) {
        const decoded: Value[] = column.cold.decode();
        column.values = decoded.concat(column.values);
      }
      column.cold = undefined;
    }
    dropDecoded(column);
    const values = column.values;
    const base = column.cold?.rows ?? 0;
    while (base + values.length < row) values.push(undefined);
    values.push(value);
    column.count += 1;
  }

  /** Seals full blocks of string columns; called after each appended page. */
  private seal(): void {
    for (const column of this.columns.values()) {
      // Built for the old row count: rows appended without this attribute are not covered.
      column.dictionary = undefined;
      column.scaled = undefined;
      if (!column.isStrings) continue;
      const base = column.cold?.rows ?? 0;
      // Pad to the current row count so a block never ends short of rows that exist.
      while (base + column.values.length < this.rowCount) column.values.push(undefined);
      if (column.values.length < COLD_BLOCK_ROWS) continue;
      column.cold ??= new ColdStrings();
      let start = 0;
      while (column.values.length - start >= COLD_BLOCK_ROWS) {
        column.cold.seal(column.values.slice(start, start + COLD_BLOCK_ROWS) as (string | undefined)[]);
        start += COLD_BLOCK_ROWS;
      }
      column.values = column.values.slice(start);
    }
  }

  appendSdkItems(items: readonly Record<string, SdkValue>[]): void {
    for (const item of items) {
      const row = this.rowCount++;
      for (const name in item) this.set(name, row, fromSdkValue(item[name]!));
    }
    this.seal();
  }

  /** At most `max` of the items: a wire page is iterated (parsed a chunk at a time), not sliced. */
  appendTaggedItems(items: Iterable<Item>, max = Infinity): void {
    let taken = 0;
    for (const item of items) {
      if (taken++ >= max) break;
      const row = this.rowCount++;
      for (const name of Object.keys(item)) this.set(name, row, fromTagged(item[name]!));
    }
    this.seal();
  }

  /** A derived table (subquery in FROM, aggregation output) from ready-made columns. */
  static fromColumns(name: string, columns: [string, Value[]][], rowCount: number): ColumnarTable {
    const table = new ColumnarTable(name);
    table.rowCount = rowCount;
    for (const [column, values] of columns)
      table.columns.set(column, { values, count: rowCount, isStrings: false });
    return table;
  }
}

function dropDecoded(column: Column): void {
  column.hot = undefined;
  column.dictionary = undefined;
  column.scaled = undefined;
}
