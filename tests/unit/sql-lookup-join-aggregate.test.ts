import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { decimalLines, decimalText } from '../support/duckdb-oracle';
import { Random, sqlNumber, sqlQuote, sqlText } from '../support/sql-diff/data';

/**
 * GROUP BY over a join read as a lookup (aggregate-batches.ts `lookupBatches`): when no build
 * key repeats, every key is a build-side column and every aggregate reads the probe side, each
 * probe row finds its group through its key number with no pairs written. DuckDB over the same
 * rows is the oracle, for the lookup and for each way back to the pairs (a repeated build key,
 * an aggregate of a build-side column). Customers have unique ids, some NULL or missing, some
 * with NULL or missing countries; orders name customers that exist, do not exist, NULL or
 * nothing; 7,000 orders, so a statement spans several batches and groups first appear in
 * several of them.
 */
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE', 'FR', 'IS'];
const SEGMENTS = ['retail', 'trade'];
const CUSTOMERS = 1_500;
const ORDERS = 7_000;

interface Rows {
  customers: Item[];
  orders: Item[];
}

const id = (c: number): string => `c${String(c).padStart(5, '0')}`;

function dataset(seed: number): Rows {
  const r = new Random(seed);
  const customers: Item[] = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    const item: Item = { name: { S: `Customer ${c}` } };
    const roll = r.next();
    if (roll < 0.02) item.customerId = { NULL: true };
    else if (roll >= 0.03) item.customerId = { S: id(c) };
    const country = r.next();
    if (country < 0.04) item.country = { NULL: true };
    else if (country >= 0.08) item.country = { S: r.pick(COUNTRIES) };
    if (r.next() > 0.05) item.segment = { S: r.pick(SEGMENTS) };
    customers.push(item);
  }
  const orders: Item[] = [];
  for (let o = 0; o < ORDERS; o++) {
    const item: Item = { orderId: { S: `o${o}` } };
    const who = r.next();
    if (who < 0.03) item.customerId = { NULL: true };
    else if (who < 0.07) item.customerId = { S: `nobody${o % 11}` };
    else if (who >= 0.09) item.customerId = { S: id(r.int(0, CUSTOMERS - 1)) };
    if (r.next() >= 0.05) item.status = { S: r.next() < 0.5 ? 'PAID' : 'OPEN' };
    const total = r.next();
    if (total < 0.05) item.total = { NULL: true };
    else if (total >= 0.1) {
      const cents = r.int(-20_000, 900_000);
      const text = (cents / 100).toFixed(2).replace(/\.?0+$/, '');
      item.total = { N: text === '-0' ? '0' : text };
    }
    orders.push(item);
  }
  return { customers, orders };
}

async function loadDuck(connection: DuckDBConnection, rows: Rows): Promise<void> {
  await connection.run(
    'CREATE OR REPLACE TABLE customers (customerId VARCHAR, country VARCHAR, segment VARCHAR, name VARCHAR)',
  );
  await connection.run(
    'CREATE OR REPLACE TABLE orders (orderId VARCHAR, customerId VARCHAR, status VARCHAR, total DECIMAL(18,2))',
  );
  const customers = rows.customers.map(
    (c) =>
      `(${sqlText(c, 'customerId')}, ${sqlText(c, 'country')}, ${sqlText(c, 'segment')}, ${sqlText(c, 'name')})`,
  );
  await connection.run(`INSERT INTO customers VALUES ${customers.join(', ')}`);
  const orders = rows.orders.map(
    (o) =>
      `(${sqlText(o, 'orderId')}, ${sqlText(o, 'customerId')}, ${sqlText(o, 'status')}, ${sqlNumber(o, 'total')})`,
  );
  await connection.run(`INSERT INTO orders VALUES ${orders.join(', ')}`);
}

const lines = decimalLines;

function engineRows(rows: Rows, sql: string): unknown[][] {
  const tables = [
    { info: tableInfo('customers', 'name'), items: rows.customers },
    { info: tableInfo('orders', 'orderId'), items: rows.orders },
  ];
  return runLocal(sql, tables).rows;
}

let connection: DuckDBConnection;
let data: Rows;
let repeated: Rows;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  data = dataset(20_261_208);
  await loadDuck(connection, data);
  // Customer 7's id also on customers 8 and 9: their orders join three customers each.
  repeated = {
    ...data,
    customers: data.customers.map((c, i) => (i === 8 || i === 9 ? { ...c, customerId: { S: id(7) } } : c)),
  };
  await connection.run(
    `CREATE TABLE repeated AS SELECT * REPLACE (CASE WHEN name IN ('Customer 8', 'Customer 9') THEN ${sqlQuote(id(7))} ELSE customerId END AS customerId) FROM customers`,
  );
});
afterAll(() => connection.closeSync());

async function duck(sql: string, approx: number[]): Promise<string[]> {
  const reader = await connection.runAndReadAll(sql);
  return lines(reader.getRowsJson(), approx).sort();
}

const CASES: { name: string; sql: string; approx?: number[] }[] = [
  {
    name: 'INNER JOIN, one build-side key, every typed aggregate of the probe side',
    sql: 'SELECT c.country, COUNT(*), COUNT(o.total), SUM(o.total), AVG(o.total), MIN(o.total), MAX(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
    approx: [4],
  },
  {
    name: 'the smaller side written first (it is still the build side)',
    sql: 'SELECT c.country, COUNT(*), SUM(o.total) FROM customers c JOIN orders o ON c.customerId = o.customerId GROUP BY c.country',
  },
  {
    name: 'two build-side keys (combined codes), NULL and missing in both',
    sql: 'SELECT c.country, c.segment, COUNT(*), SUM(o.total), MAX(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.country, c.segment',
  },
  {
    name: 'a filter on the probe side from codes',
    sql: "SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'PAID' GROUP BY c.country",
  },
  {
    name: 'LEFT JOIN: orders with no customer in the group of NULL keys',
    sql: 'SELECT c.country, COUNT(*), SUM(o.total), MIN(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
  },
  {
    name: 'LEFT JOIN, two keys',
    sql: 'SELECT c.segment, c.country, COUNT(*), COUNT(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.segment, c.country',
  },
  {
    name: 'no order matches: no groups',
    sql: "SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId WHERE o.status = 'NOPE' GROUP BY c.country",
  },
  {
    name: 'a group per customer: the per-group arrays grow while the lookup adds the SUM',
    sql: 'SELECT c.name, COUNT(*), SUM(o.total), MIN(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.name',
  },
  // COUNT(*) and one SUM or AVG: the group found and the number added in one pass (lookupAdd).
  {
    name: 'LEFT JOIN with COUNT(*) and AVG, in one pass',
    sql: 'SELECT c.country, COUNT(*), AVG(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
    approx: [2],
  },
  {
    name: 'SUM alone over two build-side keys, in one pass',
    sql: 'SELECT c.segment, c.country, SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.segment, c.country',
  },
  // Back to the pairs: an aggregate of a build-side column, a key from the probe side.
  {
    name: 'an aggregate reading the build side',
    sql: 'SELECT c.country, COUNT(*), COUNT(c.segment), SUM(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
  },
  {
    name: 'a key from each side',
    sql: 'SELECT o.status, c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY o.status, c.country',
  },
];

describe('GROUP BY over a join read as a lookup (DuckDB as the oracle)', () => {
  for (const c of CASES) {
    it(`agrees on ${c.name}`, async () => {
      const approx = c.approx ?? [];
      expect(lines(engineRows(data, c.sql), approx).sort()).toEqual(await duck(c.sql, approx));
    });
  }

  it('agrees when a build key repeats (pairs, not the lookup)', async () => {
    const sql =
      'SELECT c.country, COUNT(*), SUM(o.total) FROM orders o JOIN customers c ON o.customerId = c.customerId GROUP BY c.country';
    expect(lines(engineRows(repeated, sql), []).sort()).toEqual(
      await duck(sql.replace('customers c', 'repeated c'), []),
    );
  });

  it('gives the groups in the order the pairs would (first appearance in the probe rows)', () => {
    const sql =
      'SELECT c.country, c.segment, COUNT(*), SUM(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country, c.segment';
    // `o.total + 0` is an expression, which only the general path over the joined frame reads.
    const general = sql.replace('SUM(o.total)', 'SUM(o.total + 0)');
    const keys = (rows: unknown[][]): string[] => rows.map((r) => `${String(r[0])}/${String(r[1])}`);
    const looked = engineRows(data, sql);
    expect(looked.length).toBeGreaterThan(COUNTRIES.length);
    expect(keys(looked)).toEqual(keys(engineRows(data, general)));
  });

  it('skips values that are not numbers in the one-pass SUM, and counts them', () => {
    const orders = data.orders.map((o, i) => (i % 250 === 3 ? { ...o, total: { S: '12.5' } } : o));
    const run = runLocal(
      'SELECT c.country, COUNT(*), SUM(o.total) FROM orders o LEFT JOIN customers c ON o.customerId = c.customerId GROUP BY c.country',
      [
        { info: tableInfo('customers', 'name'), items: data.customers },
        { info: tableInfo('orders', 'orderId'), items: orders },
      ],
    );
    // The oracle: a plain tally per country in cents (customer ids are unique in this data).
    const text = (v: Item[string] | undefined): string | undefined => (v && 'S' in v ? v.S : undefined);
    const countryOf = new Map<string, string>();
    for (const c of data.customers) {
      const who = text(c.customerId);
      if (who !== undefined) countryOf.set(who, text(c.country) ?? 'NULL');
    }
    const tally = new Map<string, { rows: number; cents: number | null }>();
    let strings = 0;
    for (const o of orders) {
      const who = text(o.customerId);
      const country = (who !== undefined && countryOf.get(who)) || 'NULL';
      const entry = tally.get(country) ?? { rows: 0, cents: null };
      entry.rows += 1;
      if (o.total && 'S' in o.total) strings += 1;
      if (o.total && 'N' in o.total) entry.cents = (entry.cents ?? 0) + Math.round(Number(o.total.N) * 100);
      tally.set(country, entry);
    }
    expect(lines(run.rows, []).sort()).toEqual(
      [...tally]
        .map(
          ([country, t]) =>
            `${country} | ${t.rows} | ${t.cents === null ? 'NULL' : decimalText(t.cents / 100, false)}`,
        )
        .sort(),
    );
    expect(strings).toBeGreaterThan(0);
    expect(run.warnings.join(' ')).toContain(`skipped ${strings} values that are not numbers`);
  });
});
