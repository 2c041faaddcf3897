import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { comparableRows, duckdbWith, duckRows, expectSameRows } from '../support/duckdb-oracle';

/**
 * The window operator's typed path (dictionary codes for PARTITION BY, scaled integers for
 * ORDER BY: operators/window-order.ts) on the data that breaks such paths: ties, NULL and
 * missing order keys, NULL and missing partition keys, partitions shorter than the top N,
 * negative numbers and a column of numbers too long for a double (which takes the general
 * path). DuckDB is the oracle where it can hold the rows; where it cannot (a column mixing
 * numbers and text), the same statement with the ORDER BY written as an expression, which
 * takes the general path, is.
 */
const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

function ordersOf(amountOf: (n: number) => AttributeValue | undefined): Item[] {
  return Array.from({ length: 90 }, (_, k) => {
    const n = k + 1;
    // u0 has one order, u1 two, ... u9 ten and more: partitions shorter and longer than 3.
    const user = Math.floor(Math.sqrt(n * 2));
    const item: Item = { orderId: S(`o${String(n).padStart(3, '0')}`), userId: S(`u${user % 11}`) };
    // A number column to partition by: no dictionary, so its values are coded per statement.
    if (n % 10 !== 0) item.grp = N(String(n % 7));
    if (n % 17 === 0) delete item.userId;
    if (n % 23 === 0) item.userId = { NULL: true };
    const amount = amountOf(n);
    if (amount) item.amount = amount;
    return item;
  });
}

// Ties (every 4th value repeats), negatives, two decimals, NULL and missing amounts.
const prices = ordersOf((n) => {
  if (n % 13 === 0) return undefined;
  if (n % 19 === 0) return { NULL: true };
  const cents = n % 4 === 0 ? 1250 : ((n * 7919) % 9000) - 3000;
  return N((cents / 100).toFixed(2));
});
// 20+ digit numbers are BigInt decimals: no scaled integers, the general path.
const wide = ordersOf((n) => (n % 13 === 0 ? undefined : N(`${(n * 7919) % 97}12345678901234567.${n % 7}`)));
// Numbers and text in one column: the typed path must step aside.
const mixed = ordersOf((n) => (n % 5 === 0 ? S(`t${n % 3}`) : N(String((n * 31) % 17))));

const run = (items: Item[], sql: string) =>
  runLocal(sql, [{ info: tableInfo('orders', 'orderId'), items }]).rows;

let duck: DuckDBConnection;
let duckWide: DuckDBConnection;
beforeAll(async () => {
  const columns = { orderId: 'VARCHAR', userId: 'VARCHAR', grp: 'BIGINT', amount: 'DECIMAL(38,4)' } as const;
  duck = await duckdbWith([{ name: 'orders', columns, items: prices }]);
  duckWide = await duckdbWith([{ name: 'orders', columns, items: wide }]);
});

const topThree = (nulls: string) =>
  `SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC ${nulls}) AS rn FROM orders) t WHERE rn <= 3`;

const rankings = (order: string) =>
  `SELECT orderId, RANK() OVER (PARTITION BY userId ORDER BY ${order}) AS rk,
          DENSE_RANK() OVER (PARTITION BY userId ORDER BY ${order}) AS dr,
          CUME_DIST() OVER (PARTITION BY userId ORDER BY ${order}) AS cd,
          SUM(amount) OVER (PARTITION BY userId ORDER BY ${order}) AS running
   FROM orders ORDER BY orderId`;

describe('window functions over typed columns, against DuckDB', () => {
  it.each(['NULLS LAST', 'NULLS FIRST'])('top 3 per user, counted and summed, %s', async (nulls) => {
    await expectSameRows(run(prices, topThree(nulls)), duck, topThree(nulls));
  });

  it.each(['amount DESC NULLS LAST', 'amount ASC NULLS FIRST', 'amount NULLS LAST'])(
    'RANK, DENSE_RANK, CUME_DIST and a running SUM with ties and NULLs (%s)',
    async (order) => {
      await expectSameRows(run(prices, rankings(order)), duck, rankings(order));
    },
  );

  it('a number column without a dictionary partitions too', async () => {
    const sql = rankings('amount DESC NULLS LAST').replaceAll('PARTITION BY userId', 'PARTITION BY grp');
    await expectSameRows(run(prices, sql), duck, sql);
  });

  it('numbers too long for a double rank exactly', async () => {
    await expectSameRows(run(wide, topThree('NULLS LAST')), duckWide, topThree('NULLS LAST'));
    const sql = rankings('amount DESC NULLS LAST');
    await expectSameRows(run(wide, sql), duckWide, sql);
  });

  it('ROW_NUMBER keeps ties in input order, as the general path does', () => {
    const numbered = (order: string) =>
      run(
        prices,
        `SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) AS rn, LAG(orderId) OVER (PARTITION BY userId ORDER BY ${order}) AS prev FROM orders ORDER BY orderId`,
      );
    for (const [typed, general] of [
      ['amount DESC NULLS LAST', 'amount * 1 DESC NULLS LAST'],
      ['amount NULLS FIRST', 'amount * 1 NULLS FIRST'],
    ] as const) {
      const rows = numbered(typed);
      expect(rows).toHaveLength(90);
      expect(comparableRows(rows)).toEqual(comparableRows(numbered(general)));
    }
  });

  it('a column mixing numbers and text orders numbers before text, as ORDER BY does', () => {
    const sql = (order: string) =>
      `SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY ${order}) AS rn, RANK() OVER (ORDER BY ${order}) AS rk FROM orders ORDER BY orderId`;
    const rows = run(mixed, sql('amount DESC'));
    expect(comparableRows(rows)).toEqual(comparableRows(run(mixed, sql("COALESCE(amount, '') DESC"))));
    // The highest ranks (DESC) go to text: t2, t1, t0 ahead of every number.
    const firstRanked = rows.filter((r) => r[2] === 1).map((r) => r[0]);
    expect(firstRanked.length).toBeGreaterThan(0);
    for (const id of firstRanked)
      expect(mixed.find((item) => (item.orderId as { S: string }).S === id)!.amount).toEqual(S('t2'));
  });
});

describe("a derived table's conditions on its window values, moved into it, against DuckDB", () => {
  // Which of two tied rows ROW_NUMBER puts first is open; (user, amount, number) is not.
  const ranked = (fn: string, where: string) =>
    `SELECT userId, amount, r FROM (SELECT userId, amount, ${fn}() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS r FROM orders) t WHERE ${where} ORDER BY userId NULLS FIRST, amount NULLS FIRST, r`;

  it.each(['ROW_NUMBER', 'RANK', 'DENSE_RANK'])(
    '%s with ties: <= k, < k, = 1, k >= r, a range and a conjunction with another column',
    async (fn) => {
      for (const where of [
        'r <= 3',
        'r < 3',
        'r = 1',
        '2 >= r',
        'r BETWEEN 2 AND 3',
        'r <= 2 AND amount > 0',
      ]) {
        const sql = ranked(fn, where);
        await expectSameRows(run(prices, sql), duck, sql);
      }
    },
  );

  it('conditions that cannot move stay outside and mean the same', async () => {
    for (const sql of [
      // LIMIT inside counts rows before the condition.
      'SELECT COUNT(*) AS n FROM (SELECT orderId, ROW_NUMBER() OVER (ORDER BY orderId) AS r FROM orders ORDER BY orderId LIMIT 20) t WHERE r > 10',
      // A subquery in the condition.
      `SELECT orderId, r FROM (SELECT orderId, RANK() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS r FROM orders) t WHERE r <= (SELECT COUNT(*) FROM orders WHERE orderId < 'o003') ORDER BY orderId`,
      // DISTINCT inside.
      'SELECT COUNT(*) AS n FROM (SELECT DISTINCT userId, DENSE_RANK() OVER (ORDER BY userId NULLS FIRST) AS r FROM orders) t WHERE r > 2',
      // On the optional side of a LEFT JOIN.
      `SELECT o.orderId, t.r FROM orders o LEFT JOIN (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS r FROM orders) t ON t.orderId = o.orderId AND t.r = 1 ORDER BY o.orderId`,
    ])
      await expectSameRows(run(prices, sql), duck, sql);
  });

  it('a derived table that already has a QUALIFY keeps it', () => {
    const rows = run(
      prices,
      'SELECT orderId, r FROM (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY orderId) AS r FROM orders QUALIFY r <= 2) t WHERE r = 2 ORDER BY orderId',
    );
    const general = run(
      prices,
      'SELECT orderId, r FROM (SELECT orderId, r FROM (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY orderId) AS r FROM orders) a WHERE r * 1 <= 2) t WHERE r * 1 = 2 ORDER BY orderId',
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(comparableRows(rows)).toEqual(comparableRows(general));
  });
});

describe('top N per partition: only the first N rows of each partition numbered (QUALIFY ROW_NUMBER … <= N)', () => {
  // The typed path keeps the best N rows of each partition in one pass; ties go in input order,
  // as the full sort puts them. `amount * 1` takes the general path (every row sorted): the oracle
  // for which of two tied rows comes first, which DuckDB leaves open.
  const numbered = (order: string, partition: string, qualify: string) =>
    `SELECT orderId, ROW_NUMBER() OVER (${partition} ORDER BY ${order}) AS rn FROM orders QUALIFY ${qualify} ORDER BY orderId`;
  const sameAsGeneral = (items: Item[], partition: string, qualify: string, empty = false) => {
    for (const [typed, general] of [
      ['amount DESC NULLS LAST', 'amount * 1 DESC NULLS LAST'],
      ['amount NULLS FIRST', 'amount * 1 NULLS FIRST'],
    ] as const) {
      const rows = run(items, numbered(typed, partition, qualify));
      if (empty) expect(rows).toEqual([]);
      else expect(rows.length).toBeGreaterThan(0);
      expect(comparableRows(rows)).toEqual(comparableRows(run(items, numbered(general, partition, qualify))));
    }
  };

  it.each([
    'rn <= 3',
    'rn < 3',
    'rn = 1',
    'rn = 2',
    '3 >= rn',
    'rn <= 2.5',
    'rn < 1.5',
    'rn <= 3 AND rn >= 2',
    'rn <= 3 AND rn <= 2',
    // Past the rows kept per partition by the one-pass path: every row is sorted.
    'rn <= 100',
  ])('ties, NULL and missing partitions and order keys: %s', (qualify) => {
    sameAsGeneral(prices, 'PARTITION BY userId', qualify);
    sameAsGeneral(prices, 'PARTITION BY grp', qualify);
    sameAsGeneral(prices, '', qualify);
  });

  it('conditions that do not bound the number keep every row numbered', async () => {
    for (const qualify of [
      'rn <= 2 OR amount > 20',
      'NOT rn > 2 AND amount > 0',
      'rn >= 2',
      'rn <= 0',
      'rn = 1.5',
    ]) {
      sameAsGeneral(prices, 'PARTITION BY userId', qualify, qualify === 'rn <= 0' || qualify === 'rn = 1.5');
      const sql = `SELECT userId, amount, rn FROM (SELECT userId, amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE ${qualify} ORDER BY userId NULLS FIRST, amount NULLS FIRST, rn`;
      // Tied rows may swap numbers between engines, so DuckDB is asked only where ties cannot
      // change the rows kept: (user, amount, number) triples are the same either way.
      if (!qualify.includes('OR') && !qualify.includes('NOT'))
        expect(comparableRows(run(prices, sql))).toEqual(await duckRows(duck, sql));
    }
  });

  it('another window over the same rows still sees every row', async () => {
    const sql = `SELECT userId, amount, rn, total, cnt FROM (SELECT userId, amount,
        ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn,
        SUM(amount) OVER (PARTITION BY userId) AS total,
        COUNT(*) OVER (PARTITION BY userId) AS cnt FROM orders) t
      WHERE rn <= 2 ORDER BY userId NULLS FIRST, amount NULLS FIRST, rn`;
    await expectSameRows(run(prices, sql), duck, sql);
  });

  it('a window without ORDER BY keeps the first rows of each partition in input order', () => {
    const rows = run(
      prices,
      'SELECT orderId FROM orders QUALIFY ROW_NUMBER() OVER (PARTITION BY userId) <= 2',
    );
    const general = run(
      prices,
      'SELECT orderId FROM (SELECT orderId, ROW_NUMBER() OVER (PARTITION BY userId) AS rn FROM orders) t WHERE rn * 1 <= 2',
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(comparableRows(rows).sort()).toEqual(comparableRows(general).sort());
  });

  it('numbers too long for a double keep the general path and the same answer', async () => {
    const sql =
      'SELECT userId, amount, rn FROM (SELECT userId, amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC NULLS LAST) AS rn FROM orders) t WHERE rn <= 2 ORDER BY userId NULLS FIRST, amount NULLS FIRST';
    await expectSameRows(run(wide, sql), duckWide, sql);
  });
});
