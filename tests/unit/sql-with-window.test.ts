import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { duckTables, type OracleCase, runAnalyst } from '../fixtures/sql-analyst-fixture';
import { duckdbWith, expectSameRows } from '../support/duckdb-oracle';

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await duckdbWith(duckTables);
});

const withCases: OracleCase[] = [
  {
    name: 'several CTEs, the second reading the first',
    sql: `WITH totals AS (SELECT customerId, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY customerId),
               big AS (SELECT customerId, total FROM totals WHERE total > 300)
          SELECT c.name, b.total FROM big b JOIN customers c ON c.customerId = b.customerId ORDER BY b.total DESC, c.name`,
  },
  {
    name: 'a CTE joined with itself',
    sql: `WITH t AS (SELECT customerId, COUNT(*) AS n FROM orders GROUP BY customerId)
          SELECT a.customerId, a.n, b.customerId FROM t a JOIN t b ON a.n = b.n AND a.customerId < b.customerId ORDER BY 1, 3`,
  },
  {
    name: 'column names in the WITH list',
    sql: `WITH t(cid, orderCount) AS (SELECT customerId, COUNT(*) FROM orders GROUP BY customerId)
          SELECT cid, orderCount FROM t WHERE orderCount >= 6 ORDER BY cid`,
  },
  {
    name: 'a CTE inside an IN subquery',
    sql: `SELECT name FROM customers WHERE customerId IN
            (WITH o AS (SELECT customerId FROM orders WHERE amount > 250) SELECT customerId FROM o) ORDER BY name`,
  },
  {
    name: 'a CTE over a UNION, read by a UNION',
    sql: `WITH ids AS (SELECT customerId FROM customers UNION SELECT customerId FROM orders)
          SELECT customerId FROM ids WHERE customerId > 'c5' UNION ALL SELECT 'total' ORDER BY 1`,
  },
];

const windowCases: OracleCase[] = [
  {
    name: 'ROW_NUMBER, RANK and DENSE_RANK per partition with ties',
    sql: `SELECT orderId, ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY amount DESC NULLS LAST, orderId) AS rn,
                 RANK() OVER (PARTITION BY customerId ORDER BY qty) AS rk,
                 DENSE_RANK() OVER (PARTITION BY customerId ORDER BY qty DESC) AS dr
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'NTILE, PERCENT_RANK and CUME_DIST',
    sql: `SELECT orderId, NTILE(5) OVER (ORDER BY orderId) AS bucket, NTILE(4) OVER (PARTITION BY status ORDER BY orderId) AS b2,
                 PERCENT_RANK() OVER (ORDER BY qty) AS pr, CUME_DIST() OVER (PARTITION BY status ORDER BY qty) AS cd
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'LAG and LEAD with offsets and defaults',
    sql: `SELECT orderId, LAG(amount) OVER (PARTITION BY customerId ORDER BY orderId) AS prev,
                 LEAD(orderId, 2, 'none') OVER (PARTITION BY customerId ORDER BY orderId) AS next2,
                 LAG(qty, 1, 0) OVER (ORDER BY orderId) AS prevQty
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'FIRST_VALUE and LAST_VALUE with the default frame (peers included) and a whole-partition frame',
    sql: `SELECT orderId, FIRST_VALUE(orderId) OVER (PARTITION BY customerId ORDER BY qty, orderId) AS first,
                 LAST_VALUE(orderId) OVER (PARTITION BY customerId ORDER BY qty) AS lastPeer,
                 LAST_VALUE(orderId) OVER (PARTITION BY customerId ORDER BY orderId ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'running totals: the default frame adds ties together (RANGE), ROWS does not',
    sql: `SELECT orderId, SUM(amount) OVER (PARTITION BY customerId ORDER BY qty) AS byRange,
                 SUM(amount) OVER (PARTITION BY customerId ORDER BY qty, orderId ROWS UNBOUNDED PRECEDING) AS byRows,
                 COUNT(amount) OVER (PARTITION BY customerId ORDER BY qty) AS n
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'moving frames and frames that run to the end',
    sql: `SELECT orderId, AVG(amount) OVER (ORDER BY orderId ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS moving,
                 MIN(amount) OVER (PARTITION BY status ORDER BY orderId ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS ahead,
                 MAX(amount) OVER (PARTITION BY customerId ORDER BY qty RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS restMax,
                 SUM(qty) OVER (ORDER BY orderId ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'aggregates over the whole partition, and COUNT(*) OVER ()',
    sql: `SELECT orderId, amount - AVG(amount) OVER (PARTITION BY customerId) AS vsAvg, COUNT(*) OVER () AS total,
                 MAX(amount) OVER (PARTITION BY status) AS best
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'QUALIFY keeps the top 2 orders per customer',
    sql: `SELECT customerId, orderId, amount FROM orders WHERE amount IS NOT NULL
          QUALIFY ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY amount DESC, orderId) <= 2
          ORDER BY customerId, amount DESC`,
  },
  {
    name: 'QUALIFY on a window alias',
    sql: `SELECT orderId, RANK() OVER (PARTITION BY status ORDER BY qty DESC) AS r FROM orders QUALIFY r = 1 ORDER BY orderId`,
  },
  {
    name: 'a window over the groups of GROUP BY',
    sql: `SELECT customerId, SUM(amount) AS total, RANK() OVER (ORDER BY SUM(amount) DESC NULLS LAST) AS place,
                 SUM(SUM(amount)) OVER () AS everything
          FROM orders GROUP BY customerId ORDER BY customerId`,
  },
];

const expectSameAsDuckDB = (c: OracleCase) => expectSameRows(runAnalyst(c.sql).rows, duck, c.duck ?? c.sql);

describe('WITH (common table expressions), against DuckDB', () => {
  it.each(withCases)('$name', expectSameAsDuckDB);

  it('evaluates a CTE used twice only once', () => {
    // SUM over text warns each time it runs: one warning means one evaluation.
    const run = runAnalyst(
      `WITH t AS (SELECT customerId, SUM(status) AS s FROM orders GROUP BY customerId)
       SELECT a.customerId FROM t a JOIN t b ON a.customerId = b.customerId`,
    );
    expect(run.rows).toHaveLength(8);
    expect(run.warnings).toEqual(['SUM(status) skipped 48 values that are not numbers.']);
  });

  it('a CTE name wins over a table of that name, and a later CTE sees an earlier one', () => {
    const run = runAnalyst(
      `WITH orders AS (SELECT orderId FROM orders WHERE qty = 1), o2 AS (SELECT COUNT(*) AS n FROM orders) SELECT n FROM o2`,
    );
    expect(run.rows).toEqual([[orders1()]]);
  });

  it('says what is wrong with a WITH list', () => {
    expect(() => runAnalyst('WITH t(a, b) AS (SELECT orderId FROM orders) SELECT a FROM t')).toThrow(
      /names 2 columns, but its query selects 1/,
    );
    expect(() => runAnalyst('WITH t AS (SELECT 1 AS x), T AS (SELECT 2 AS x) SELECT x FROM t')).toThrow(
      /defined twice/,
    );
  });
});

function orders1(): number {
  return runAnalyst('SELECT COUNT(*) FROM orders WHERE qty = 1').rows[0]![0] as number;
}

describe('window functions, against DuckDB', () => {
  it.each(windowCases)('$name', expectSameAsDuckDB);

  it('refuses a window function in WHERE and points at QUALIFY', () => {
    expect(() =>
      runAnalyst('SELECT orderId FROM orders WHERE ROW_NUMBER() OVER (ORDER BY orderId) < 3'),
    ).toThrow(/cannot be used in WHERE; filter on a window function with QUALIFY/);
  });

  it('says "not supported" with a rewrite for the window forms it does not run', () => {
    for (const [sql, message] of [
      [
        'SELECT COUNT(DISTINCT qty) OVER () FROM orders',
        /COUNT\(DISTINCT \.\.\.\) OVER is not supported; compute it in a subquery/,
      ],
      [
        'SELECT SUM(qty) OVER (ORDER BY qty RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders',
        /RANGE with an offset .* is not supported; use ROWS/,
      ],
      [
        'SELECT SUM(qty) OVER w FROM orders',
        /Named windows \(OVER w\) are not supported; write the window in place/,
      ],
      ['SELECT UPPER(status) OVER () FROM orders', /UPPER\(\) OVER is not supported; window functions are/],
    ] as const) {
      expect(() => runAnalyst(sql), sql).toThrow(message);
    }
  });

  it('SUM over a window skips text like GROUP BY does, and says so once', () => {
    const run = runAnalyst('SELECT SUM(status) OVER (PARTITION BY customerId) FROM orders');
    expect(run.rows.every((r) => r[0] === null)).toBe(true);
    expect(run.warnings).toHaveLength(1);
  });
});
