import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { Value } from '../../src/main/sql/values/value';
import { isNum, numToString } from '../../src/main/sql/values/decimal';

/** A column of the DuckDB copy: its SQL type; values come from the items' attribute of that name. */
export type DuckColumns = Record<string, 'VARCHAR' | 'DECIMAL(38,4)' | 'BIGINT' | 'BOOLEAN'>;

export interface DuckTable {
  name: string;
  columns: DuckColumns;
  items: readonly Item[];
}

function literal(v: AttributeValue | undefined): string {
  if (v === undefined || 'NULL' in v) return 'NULL';
  if ('S' in v) return `'${v.S.replace(/'/g, "''")}'`;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return v.BOOL ? 'TRUE' : 'FALSE';
  throw new Error('only scalar attributes are copied to DuckDB');
}

/**
 * DuckDB as the independent oracle: the same items loaded into an in-memory DuckDB table, one
 * column per attribute (a missing attribute and DynamoDB's NULL are both NULL there).
 */
export async function duckdbWith(tables: DuckTable[]): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  for (const table of tables) {
    const names = Object.keys(table.columns);
    await connection.run(
      `CREATE TABLE "${table.name}" (${names.map((n) => `"${n}" ${table.columns[n]!}`).join(', ')})`,
    );
    // Own attributes only: an item without `constructor` would read Object's.
    const rows = table.items.map(
      (item) => `(${names.map((n) => literal(Object.hasOwn(item, n) ? item[n] : undefined)).join(', ')})`,
    );
    if (rows.length > 0) await connection.run(`INSERT INTO "${table.name}" VALUES ${rows.join(', ')}`);
  }
  return connection;
}

/** One comparable form for both engines: numbers to 12 significant digits, dates as ISO text. */
export function comparable(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return comparable(Number(v));
  if (typeof v === 'number') return Number(v.toPrecision(12));
  if (v instanceof Date) return v.toISOString();
  if (isNum(v)) return comparable(Number(numToString(v)));
  return v;
}

export async function duckRows(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowsJS().map((row) => row.map(comparable));
}

export function comparableRows(rows: Value[][]): unknown[][] {
  return rows.map((row) => row.map(comparable));
}

/** Rows in a fixed order, for statements whose order SQL leaves open. */
export function sorted(rows: unknown[][]): unknown[][] {
  return [...rows].sort((a, b) =>
    JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0,
  );
}

/** DynoTable's rows (`ours`, over the same items) are DuckDB's rows for `duckSql`, in order, and not none. */
export async function expectSameRows(
  ours: Value[][],
  connection: DuckDBConnection,
  duckSql: string,
): Promise<void> {
  const theirs = await duckRows(connection, duckSql);
  expect(ours.length).toBeGreaterThan(0);
  expect(comparableRows(ours)).toEqual(theirs);
}

/**
 * Canonical decimal text of a value, for exact comparisons (DuckDB's DECIMAL(18,2) prints 1.50,
 * DynoTable 1.5): no trailing zeros, no leading zeros, no -0; `approx` (an AVG) to 12 digits.
 */
export function decimalText(value: unknown, approx = false): string {
  if (value === null || value === undefined) return 'NULL';
  let raw: string;
  if (isNum(value)) raw = numToString(value);
  else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
    raw = String(value);
  else return JSON.stringify(value);
  if (!/^-?\d+(\.\d+)?$/.test(raw)) return raw;
  if (approx) return String(Number(Number(raw).toPrecision(12)));
  let t = raw.includes('.') ? raw.replace(/0+$/, '').replace(/\.$/, '') : raw;
  t = t.replace(/^(-?)0+(?=\d)/, '$1');
  return t === '-0' ? '0' : t;
}

/** Rows as lines of decimalText, columns listed in `approx` to 12 digits. */
export const decimalLines = (
  rows: readonly (readonly unknown[])[],
  approx: readonly number[] = [],
): string[] => rows.map((row) => row.map((v, i) => decimalText(v, approx.includes(i))).join(' | '));
