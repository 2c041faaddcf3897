import { type DuckDBConnection, DuckDBInstance, decimalValue } from '@duckdb/node-api';
import alasql from 'alasql';
import type { SdkItem } from './sql-data';

/**
 * The other engines of `npm run bench:sql`, loaded from the same parsed pages as DynoTable's.
 * Both get typed columns (DuckDB's numbers with cents are exact DECIMAL(18,2)); nested maps and
 * lists are left out, since no question reads them and neither engine has DynamoDB's types.
 */
export interface DuckTableSpec {
  name: string;
  text: readonly string[];
  /** Numbers with two places: DECIMAL(18,2). */
  cents: readonly string[];
  integers: readonly string[];
}

/** The one table of the one-table shape. */
export const APP_TABLE: DuckTableSpec = {
  name: 'App',
  text: [
    'PK',
    'SK',
    'type',
    'userId',
    'orderId',
    'name',
    'email',
    'country',
    'status',
    'createdAt',
    'note',
    'bio',
  ],
  cents: ['amount'],
  integers: ['quantity'],
};

export class DuckSide {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    private readonly specs: ReadonlyMap<string, DuckTableSpec>,
  ) {}

  static async open(tables: readonly DuckTableSpec[]): Promise<DuckSide> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    for (const t of tables) {
      const columns = [
        ...t.text.map((c) => `"${c}" VARCHAR`),
        ...t.cents.map((c) => `"${c}" DECIMAL(18,2)`),
        ...t.integers.map((c) => `"${c}" INTEGER`),
      ];
      await connection.run(`CREATE TABLE ${t.name} (${columns.join(', ')})`);
    }
    return new DuckSide(instance, connection, new Map(tables.map((t) => [t.name, t])));
  }

  /** Appends one page of items (DuckDB's load, the way DynoTable's columns load page by page). */
  async append(table: string, items: readonly SdkItem[]): Promise<void> {
    const spec = this.specs.get(table)!;
    const appender = await this.connection.createAppender(table);
    for (const item of items) {
      for (const c of spec.text) {
        const value = item[c]?.S;
        if (value === undefined) appender.appendNull();
        else appender.appendVarchar(value);
      }
      for (const c of spec.cents) {
        const value = item[c]?.N;
        if (value === undefined) appender.appendNull();
        else appender.appendDecimal(decimalValue(BigInt(value.replace('.', '')), 18, 2));
      }
      for (const c of spec.integers) {
        const value = item[c]?.N;
        if (value === undefined) appender.appendNull();
        else appender.appendInteger(Number(value));
      }
      appender.endRow();
    }
    appender.closeSync();
  }

  async rows(sql: string): Promise<unknown[][]> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowsJson();
  }

  /** DuckDB's own account of the memory it holds (outside the JS heap). */
  async memoryBytes(): Promise<number> {
    const [row] = await this.rows('SELECT SUM(memory_usage_bytes)::BIGINT FROM duckdb_memory()');
    return Number(row?.[0] ?? 0);
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** alasql wants plain objects: its load is turning the SDK items into rows. */
export function alasqlLoad(items: readonly SdkItem[]): void {
  const rows = new Array<Record<string, unknown>>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const row: Record<string, unknown> = {};
    for (const c of APP_TABLE.text) row[c] = item[c]?.S;
    row.amount = item.amount?.N === undefined ? undefined : Number(item.amount.N);
    row.quantity = item.quantity?.N === undefined ? undefined : Number(item.quantity.N);
    rows[i] = row;
  }
  alasql('DROP TABLE IF EXISTS App; CREATE TABLE App');
  (alasql as unknown as { tables: Record<string, { data: unknown[] }> }).tables.App!.data = rows;
}

export function alasqlRows(sql: string): unknown[][] {
  const result = alasql<Record<string, unknown>[]>(sql);
  return result.map((row) => Object.values(row));
}
