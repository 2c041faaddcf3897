import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { fromSdkValue, fromTagged, type Value } from '../values/value';

/**
 * Fetched items held column by column: one JS array per top-level attribute, `undefined` where
 * an item lacks it. Columns make a scan of one attribute a tight loop over one array, and the
 * tagged item objects can be dropped as soon as a page is appended (they cost several times
 * the data). A column that appears late is padded once, so arrays stay dense (no holes,
 * which would push V8 into slow dictionary elements).
 */
export class ColumnarTable {
  rowCount = 0;
  /** `count`: non-missing values, for `SELECT *` column order and autocomplete. */
  private readonly columns = new Map<string, { values: Value[]; count: number }>();

  constructor(
    readonly name: string,
    /** Key attributes (table and index keys), shown first by `SELECT *`. */
    readonly keyAttributes: readonly string[] = [],
  ) {}

  column(name: string): readonly Value[] | undefined {
    return this.columns.get(name)?.values;
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
      column = { values: [], count: 0 };
      this.columns.set(name, column);
    }
    const values = column.values;
    while (values.length < row) values.push(undefined);
    values.push(value);
    column.count += 1;
  }

  appendSdkItems(items: readonly Record<string, SdkValue>[]): void {
    for (const item of items) {
      const row = this.rowCount++;
      for (const name in item) this.set(name, row, fromSdkValue(item[name]!));
    }
  }

  appendTaggedItems(items: readonly Item[]): void {
    for (const item of items) {
      const row = this.rowCount++;
      for (const name of Object.keys(item)) this.set(name, row, fromTagged(item[name]!));
    }
  }

  /** A derived table (subquery in FROM, aggregation output) from ready-made columns. */
  static fromColumns(name: string, columns: [string, Value[]][], rowCount: number): ColumnarTable {
    const table = new ColumnarTable(name);
    table.rowCount = rowCount;
    for (const [column, values] of columns) table.columns.set(column, { values, count: rowCount });
    return table;
  }
}
