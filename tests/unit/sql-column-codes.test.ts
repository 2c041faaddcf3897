import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { comparableRows, duckdbWith, expectSameRows } from '../support/duckdb-oracle';

/**
 * Column codes (executor/column-codes.ts) as read by correlated subqueries (one answer per code
 * of the outer column), GROUP BY and PARTITION BY, on the columns that take each way to them:
 * strings with a dictionary (`userId`, `grp`), numbers (`num`: hashed codes that are not
 * string-identical, so the per-code answers step aside), and more distinct strings than a
 * dictionary keeps (hashed codes). NULL and missing outer values, outer values with no inner
 * match, and decimals too long for a double are in the data. DuckDB is the oracle.
 */
const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

function orderItems(amountOf: (n: number) => AttributeValue | undefined): Item[] {
  return Array.from({ length: 6000 }, (_, n) => {
    const item: Item = {
      orderId: S(`o${String(n).padStart(5, '0')}`),
      userId: S(`u${(n * 7) % 3000}`),
      grp: S(`g${n % 40}`),
      num: N(String(n % 25)),
    };
    if (n % 31 === 0) delete item.userId;
    if (n % 37 === 0) item.userId = { NULL: true };
    if (n % 41 === 0) item.grp = { NULL: true };
    if (n % 43 === 0) delete item.num;
    const amount = amountOf(n);
    if (amount) item.amount = amount;
    return item;
  });
}

// Two decimals with ties, negatives, NULL and missing amounts.
const orders = orderItems((n) => {
  if (n % 13 === 0) return undefined;
  if (n % 19 === 0) return { NULL: true };
  const cents = n % 4 === 0 ? 1250 : ((n * 7919) % 9000) - 3000;
  return N((cents / 100).toFixed(2));
});
// 21 significant digits: a double cannot tell neighbours apart, so `>` against an AVG must be exact.
const wide = orderItems((n) => (n % 13 === 0 ? undefined : N(`98765432109876543${n % 10}.${n % 7}`)));

// Customers: ids with orders, ids with none, a NULL id and a missing one.
const customers: Item[] = Array.from({ length: 400 }, (_, k) => {
  const item: Item = {
    custId: S(`c${k}`),
    id: S(k % 3 === 0 ? `nobody${k}` : `u${k * 5}`),
    tier: S(`g${k % 50}`),
  };
  if (k === 7) item.id = { NULL: true };
  if (k === 11) delete item.id;
  return item;
});

const tables = (items: Item[]) => [
  { info: tableInfo('orders', 'orderId'), items },
  { info: tableInfo('customers', 'custId'), items: customers },
];
const run = (items: Item[], sql: string) => runLocal(sql, tables(items)).rows;

let duck: DuckDBConnection;
let duckWide: DuckDBConnection;
beforeAll(async () => {
  const columns = {
    orderId: 'VARCHAR',
    userId: 'VARCHAR',
    grp: 'VARCHAR',
    num: 'BIGINT',
    amount: 'DECIMAL(38,4)',
  } as const;
  const customerTable = {
    name: 'customers',
    columns: { custId: 'VARCHAR', id: 'VARCHAR', tier: 'VARCHAR' } as const,
    items: customers,
  };
  duck = await duckdbWith([{ name: 'orders', columns, items: orders }, customerTable]);
  duckWide = await duckdbWith([{ name: 'orders', columns, items: wide }, customerTable]);
});

const aboveAverage = (column: string) =>
  `SELECT COUNT(*) AS n FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.${column} = o.${column})`;

describe('correlated subqueries read the outer column by its codes, against DuckDB', () => {
  it.each(['userId', 'grp', 'num'])(
    'orders above their own %s average (NULL and missing outer values)',
    async (column) => {
      const sql = aboveAverage(column);
      const rows = run(orders, sql);
      expect(Number(rows[0]![0])).toBeGreaterThan(100);
      await expectSameRows(rows, duck, sql);
    },
  );

  it('decimals too long for a double compare exactly with their average', async () => {
    // DuckDB's AVG of a DECIMAL is a DOUBLE, so it is asked the exact way: amount × count > sum.
    const exact = (column: string) =>
      `SELECT COUNT(*) FROM orders o WHERE o.amount * (SELECT COUNT(p.amount) FROM orders p WHERE p.${column} = o.${column}) > (SELECT SUM(p.amount) FROM orders p WHERE p.${column} = o.${column})`;
    for (const column of ['userId', 'grp']) {
      const rows = run(wide, aboveAverage(column));
      expect(Number(rows[0]![0])).toBeGreaterThan(100);
      await expectSameRows(rows, duckWide, exact(column));
    }
  });

  it('outer values with no match get the answer over no rows: COUNT 0, SUM NULL', async () => {
    const sql = `SELECT c.custId, (SELECT COUNT(*) FROM orders p WHERE p.userId = c.id) AS n,
                        (SELECT SUM(p.amount) FROM orders p WHERE p.userId = c.id) AS total
                 FROM customers c ORDER BY c.custId`;
    const rows = run(orders, sql);
    expect(rows.filter((r) => r[1] === 0).length).toBeGreaterThan(100);
    await expectSameRows(rows, duck, sql);
  });

  it('EXISTS, NOT EXISTS and IN over a correlated subquery', async () => {
    for (const sql of [
      'SELECT COUNT(*) AS n FROM customers c WHERE EXISTS (SELECT 1 FROM orders p WHERE p.userId = c.id)',
      'SELECT COUNT(*) AS n FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders p WHERE p.userId = c.id)',
      'SELECT COUNT(*) AS n FROM customers c WHERE c.tier IN (SELECT p.grp FROM orders p WHERE p.userId = c.id)',
      'SELECT COUNT(*) AS n FROM orders o WHERE o.grp NOT IN (SELECT c.tier FROM customers c WHERE c.id = o.userId)',
    ])
      await expectSameRows(run(orders, sql), duck, sql);
  });

  it('tells a NULL outer value from a missing one, as the value path does', () => {
    // IS MISSING can only tell them apart by the value itself: code 0 is both.
    const sql = `SELECT c.custId, (SELECT COUNT(*) FROM orders p WHERE c.id IS MISSING AND p.userId IS MISSING) AS missing,
                        (SELECT COUNT(*) FROM orders p WHERE c.id IS NULL AND p.userId IS NULL) AS nulls
                 FROM customers c WHERE c.custId IN ('c7', 'c11', 'c1') ORDER BY c.custId`;
    const missing = orders.filter((item) => item.userId === undefined).length;
    const nulls = orders.filter((item) => item.userId === undefined || 'NULL' in item.userId).length;
    expect(missing).toBeGreaterThan(0);
    expect(nulls).toBeGreaterThan(missing);
    expect(comparableRows(run(orders, sql))).toEqual([
      ['c1', 0, 0],
      ['c11', missing, nulls],
      ['c7', 0, nulls],
    ]);
  });
});

describe('more distinct strings than a dictionary keeps (68,000 users), against DuckDB', () => {
  // Past 65,536 distinct strings a column has no dictionary: its codes come from a hash pass.
  const many: Item[] = Array.from({ length: 80_000 }, (_, n) => {
    const item: Item = { orderId: S(`o${n}`), userId: S(`u${(n * 7) % 68_000}`) };
    if (n % 31 === 0) delete item.userId;
    if (n % 37 === 0) item.userId = { NULL: true };
    if (n % 13 !== 0) item.amount = N(String(((n * 7919) % 9000) / 100));
    return item;
  });
  let duckMany: DuckDBConnection;
  beforeAll(async () => {
    const columns = { orderId: 'VARCHAR', userId: 'VARCHAR', amount: 'DECIMAL(38,4)' } as const;
    duckMany = await duckdbWith([{ name: 'orders', columns, items: many }]);
  }, 120_000);
  const runMany = (sql: string) =>
    runLocal(sql, [{ info: tableInfo('orders', 'orderId'), items: many }]).rows;

  it.each([
    ['a correlated subquery', aboveAverage('userId')],
    [
      'top 3 per user',
      'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE rn <= 3',
    ],
    [
      'GROUP BY',
      'SELECT COUNT(*) AS groups, SUM(n) AS n, MAX(total) AS top FROM (SELECT userId, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY userId) g',
    ],
  ])(
    '%s',
    async (_, sql) => {
      await expectSameRows(runMany(sql), duckMany, sql);
    },
    60_000,
  );
});

describe('GROUP BY and PARTITION BY over hashed codes, against DuckDB', () => {
  it('GROUP BY a column of strings that repeat little, and a number column', async () => {
    for (const column of ['userId', 'num']) {
      const sql = `SELECT ${column}, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY ${column} ORDER BY ${column} NULLS FIRST`;
      await expectSameRows(run(orders, sql), duck, sql);
    }
  });

  it('top 3 per user and RANK over a column of strings that repeat little', async () => {
    const top = `SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE rn <= 3`;
    await expectSameRows(run(orders, top), duck, top);
    const ranks = `SELECT orderId, RANK() OVER (PARTITION BY userId ORDER BY amount NULLS FIRST) AS rk FROM orders ORDER BY orderId`;
    await expectSameRows(run(orders, ranks), duck, ranks);
  });

  it('a window over a few rows of a large column codes just those rows', async () => {
    const sql = `SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders WHERE orderId < 'o00200' ORDER BY orderId`;
    await expectSameRows(run(orders, sql), duck, sql);
  });
});
