import { type DuckDBConnection, DuckDBInstance, decimalValue } from '@duckdb/node-api';
import alasql from 'alasql';
import type { SdkItem } from './sql-data';

/**
 * The other engines of `npm run bench:sql`, loaded from the same parsed pages as DynoTable's.
 * Both get typed columns (DuckDB's `amount` is an exact DECIMAL(18,2)); the nested `address` and
 * `tags` are left out, since no question reads them and neither engine has DynamoDB's types.
 */
const TEXT_COLUMNS = [
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
] as const;

export class DuckSide {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  static async open(): Promise<DuckSide> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    await connection.run(
      `CREATE TABLE App (${TEXT_COLUMNS.map((c) => `"${c}" VARCHAR`).join(', ')}, amount DECIMAL(18,2), quantity INTEGER)`,
    );
    return new DuckSide(instance, connection);
  }

  /** Appends one page of items (DuckDB's load, the way DynoTable's columns load page by page). */
  async append(items: readonly SdkItem[]): Promise<void> {
    const appender = await this.connection.createAppender('App');
    for (const item of items) {
      for (const c of TEXT_COLUMNS) {
        const value = item[c]?.S;
        if (value === undefined) appender.appendNull();
        else appender.appendVarchar(value);
      }
      const amount = item.amount?.N;
      if (amount === undefined) appender.appendNull();
      else appender.appendDecimal(decimalValue(BigInt(amount.replace('.', '')), 18, 2));
      const quantity = item.quantity?.N;
      if (quantity === undefined) appender.appendNull();
      else appender.appendInteger(Number(quantity));
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
    for (const c of TEXT_COLUMNS) row[c] = item[c]?.S;
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
