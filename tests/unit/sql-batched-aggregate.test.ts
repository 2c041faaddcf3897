import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { decimalLines, decimalText } from '../support/duckdb-oracle';
import { Random, sqlNumber, sqlText } from '../support/sql-diff/data';

/**
 * GROUP BY read in batches into typed per-group arrays (operators/aggregate-batches.ts, with
 * join-stream.ts for joins), against DuckDB over the same rows in typed tables. The columns are
 * clean (all strings, all numbers, with NULL and missing values) so the typed path answers;
 * other columns and statements send it to the general path (a BigInt decimal, totals past
 * 2^53, DISTINCT, a number key, ROLLUP), which must give the same answers. Several thousand rows,
 * so every statement spans several batches.
 */
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE', 'FR'];
const STATUSES = ['PENDING', 'PAID', 'SHIPPED', 'CANCELLED'];
const CUSTOMERS = 2_600;
const ORDERS = 9_000;

interface Rows {
  customers: Item[];
  orders: Item[];
}

function dataset(seed: number): Rows {
  const r = new Random(seed);
  const id = (c: number): string => `c${String(c).padStart(5, '0')}`;
  const customers: Item[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    const item: Item = { name: { S: `Customer ${c}` } };
    // A few repeated ids (two customers match one order) and some without an id.
    const roll = r.next();
    if (roll < 0.02) item.customerId = { NULL: true };
    else if (roll >= 0.04) item.customerId = { S: id(roll < 0.08 ? c - 1 : c) };
    const country = r.next();
    if (country < 0.05) item.country = { NULL: true };
    else if (country >= 0.1) item.country = { S: r.pick(COUNTRIES) };
    customers.push(item);
  }
  const orders: Item[] = [];
  for (let o = 0; o < ORDERS; o++) {
    const item: Item = { orderId: { S: `o${o}` } };
    const who = r.next();
    // Some orders name no customer, NULL, or one that does not exist.
    if (who < 0.03) item.customerId = { NULL: true };
    else if (who < 0.06) item.customerId = { S: `nobody${o % 7}` };
    else if (who >= 0.09) item.customerId = { S: id(r.int(0, CUSTOMERS - 1)) };
    const status = r.next();
    if (status < 0.04) item.status = { NULL: true };
    else if (status >= 0.08) item.status = { S: r.pick(STATUSES) };
    const total = r.next();
    if (total < 0.05) item.total = { NULL: true };
    else if (total >= 0.1) {
      const cents = r.int(-50_000, 500_000);
      const text = (cents / 100).toFixed(2).replace(/\.?0+$/, '');
      item.total = { N: text === '-0' ? '0' : text };
    }
    if (r.next() > 0.1) item.qty = { N: String(r.int(1, 9)) };
    // 20 digits: a BigInt decimal, which the typed sums do not hold.
    if (o % 97 === 0) item.big = { N: `123456789012345678.${String(o % 100).padStart(2, '0')}` };
    else item.big = { N: String(r.int(-99, 99)) };
    // 14 digits each: their total passes 2^53, so the typed sum gives way to the exact one.
    item.huge = { N: String(90_000_000_000_000 + r.int(0, 999)) };
    orders.push(item);
  }
  return { customers, orders };
}

async function loadDuck(connection: DuckDBConnection, rows: Rows): Promise<void> {
  await connection.run(
    'CREATE OR REPLACE TABLE customers (customerId VARCHAR, country VARCHAR, name VARCHAR)',
  );
  await connection.run(
    'CREATE OR REPLACE TABLE orders (orderId VARCHAR, customerId VARCHAR, status VARCHAR, total DECIMAL(18,2), qty INTEGER, big DECIMAL(38,2), huge DECIMAL(38,0))',
  );
  const customers = rows.customers.map(
    (c) => `(${sqlText(c, 'customerId')}, ${sqlText(c, 'country')}, ${sqlText(c, 'name')})`,
  );
  await connection.run(`INSERT INTO customers VALUES ${customers.join(', ')}`);
  const orders = rows.orders.map(
    (o) =>
      `(${sqlText(o, 'orderId')}, ${sqlText(o, 'customerId')}, ${sqlText(o, 'status')}, ${sqlNumber(o, 'total')}, ${sqlNumber(o, 'qty')}, ${sqlNumber(o, 'big')}, ${sqlNumber(o, 'huge')})`,
  );
  await connection.run(`INSERT INTO orders VALUES ${orders.join(', ')}`);
}

const render = (rows: readonly (readonly unknown[])[], approx: number[]): string[] =>
  decimalLines(rows, approx).sort();

function engine(rows: Rows, sql: string, approx: number[] = []): string[] {
  const tables = [
    { info: tableInfo('customers', 'name'), items: rows.customers },
    { info: tableInfo('orders', 'orderId'), items: rows.orders },
  ];
  return render(runLocal(sql, tables).rows, approx);
}

let connection: DuckDBConnection;
let data: Rows;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  data = dataset(20_261_207);
  await loadDuck(connection, data);
});
afterAll(() => connection.closeSync());

async function duck(sql: string, approx: number[] = []): Promise<string[]> {
  const reader = await connection.runAndReadAll(sql);
  return render(reader.getRowsJson(), approx);
}

/** The statement as both engines read it, and the outputs that are AVG (compared to 12 digits). */
const CASES: { name: string; sql: string; approx?: number[]; isEmpty?: boolean }[] = [
  {
    name: 'one key, every typed aggregate',
    sql: 'SELECT status, COUNT(*), COUNT(total), SUM(total), AVG(total), MIN(total), MAX(total), MIN(qty) FROM orders GROUP BY status',
    approx: [4],
  },
  {
    name: 'no key, the whole table',
    sql: 'SELECT COUNT(*), SUM(total), MAX(qty), COUNT(status) FROM orders',
  },
  {
    name: 'JOIN, key from the build side, filter from codes',
    sql: "SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
  },
  {
    name: 'JOIN, two keys from both sides (combined codes)',
    sql: 'SELECT o.status, c.country, COUNT(*), SUM(o.total), MIN(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY o.status, c.country',
  },
  {
    name: 'JOIN built on the left side (the smaller one)',
    sql: 'SELECT c.country, COUNT(*), AVG(o.total) FROM customers c JOIN orders o ON c.customerId = o.customerId GROUP BY c.country',
    approx: [2],
  },
  {
    name: 'LEFT JOIN: unmatched orders group under NULL',
    sql: 'SELECT c.country, COUNT(*), COUNT(c.customerId), SUM(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
  },
  {
    name: 'no rows: no groups, or one group of nothing',
    sql: "SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'NOPE' GROUP BY c.country",
    isEmpty: true,
  },
  {
    name: 'no rows, no key',
    sql: "SELECT COUNT(*), SUM(total), MIN(total) FROM orders WHERE status = 'NOPE'",
  },
  {
    name: 'thousands of groups: the per-group arrays grow while the group pass adds the first SUM',
    sql: 'SELECT customerId, COUNT(*), SUM(total), AVG(qty), MAX(total) FROM orders GROUP BY customerId',
    approx: [3],
  },
  {
    name: 'two sums: the first added with the groups, the second after them',
    sql: 'SELECT status, SUM(qty), SUM(total), AVG(total), COUNT(total) FROM orders GROUP BY status',
    approx: [3],
  },
  // The general path, for what the typed one does not hold exactly.
  {
    name: 'a BigInt decimal in the column',
    sql: 'SELECT status, SUM(big), MIN(big), MAX(big) FROM orders GROUP BY status',
  },
  { name: 'a total past 2^53', sql: 'SELECT status, SUM(huge), COUNT(*) FROM orders GROUP BY status' },
  {
    name: 'DISTINCT',
    sql: 'SELECT c.country, COUNT(DISTINCT o.status), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
  },
  { name: 'a number key', sql: 'SELECT qty, COUNT(*), SUM(total) FROM orders GROUP BY qty' },
  { name: 'ROLLUP', sql: 'SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY ROLLUP (status)' },
];

describe('GROUP BY in batches (DuckDB as the oracle)', () => {
  for (const c of CASES) {
    it(`agrees on ${c.name}`, async () => {
      const expected = await duck(c.sql, c.approx);
      expect(expected.length === 0).toBe(c.isEmpty === true);
      expect(engine(data, c.sql, c.approx)).toEqual(expected);
    });
  }

  it('skips values that are not numbers in the SUM added with the groups, and counts them', () => {
    const orders = data.orders.map((o, i) => (i % 300 === 11 ? { ...o, total: { S: '12.5' } } : o));
    const tables = [{ info: tableInfo('orders', 'orderId'), items: orders }];
    const result = runLocal('SELECT customerId, SUM(total) FROM orders GROUP BY customerId', tables);
    // The oracle: a plain tally in cents of the numbers per customer; '12.5' is text, not a number.
    const cents = new Map<string, number | null>();
    let strings = 0;
    for (const o of orders) {
      const who = o.customerId && 'S' in o.customerId ? o.customerId.S : 'NULL';
      if (!cents.has(who)) cents.set(who, null);
      const t = o.total;
      if (t && 'S' in t) strings += 1;
      if (!t || !('N' in t)) continue;
      cents.set(who, (cents.get(who) ?? 0) + Math.round(Number(t.N) * 100));
    }
    expect(render(result.rows, [])).toEqual(
      [...cents].map(([who, c]) => `${who} | ${c === null ? 'NULL' : decimalText(c / 100, false)}`).sort(),
    );
    expect(strings).toBeGreaterThan(0);
    expect(result.warnings.join(' ')).toContain(`skipped ${strings} values that are not numbers`);
  });

  it('prefers numbers in MIN and MAX when a column also holds strings, as the general path does', () => {
    const orders = data.orders.map((o, i) => (i % 500 === 7 ? { ...o, total: { S: 'n/a' } } : o));
    const rows = engine(
      { ...data, orders },
      'SELECT status, MIN(total), MAX(total) FROM orders GROUP BY status',
    );
    // The oracle: a plain tally of the numbers per status.
    const best = new Map<string, [number, number]>();
    for (const o of orders) {
      const t = o.total;
      if (!t || !('N' in t)) continue;
      const status = o.status && 'S' in o.status ? o.status.S : 'NULL';
      const [lo, hi] = best.get(status) ?? [Infinity, -Infinity];
      best.set(status, [Math.min(lo, Number(t.N)), Math.max(hi, Number(t.N))]);
    }
    expect(rows).toEqual(
      [...best].map(([s, [lo, hi]]) => `${s} | ${decimalText(lo, false)} | ${decimalText(hi, false)}`).sort(),
    );
  });
});
