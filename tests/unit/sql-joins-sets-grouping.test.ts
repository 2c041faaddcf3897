import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { duckTables, type OracleCase, runAnalyst } from '../fixtures/sql-analyst-fixture';
import { comparableRows, duckdbWith, duckRows, expectSameRows } from '../support/duckdb-oracle';

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await duckdbWith(duckTables);
});

const expectSameAsDuckDB = (c: OracleCase) => expectSameRows(runAnalyst(c.sql).rows, duck, c.duck ?? c.sql);

const joinCases: OracleCase[] = [
  {
    name: 'RIGHT JOIN keeps every customer, with or without orders',
    sql: `SELECT c.customerId, o.orderId FROM orders o RIGHT JOIN customers c ON o.customerId = c.customerId
          ORDER BY c.customerId, o.orderId NULLS FIRST`,
  },
  {
    name: 'RIGHT OUTER JOIN with a condition on the kept side in ON',
    sql: `SELECT c.customerId, o.orderId FROM orders o RIGHT OUTER JOIN customers c ON o.customerId = c.customerId AND c.region = 'north'
          ORDER BY c.customerId, o.orderId NULLS FIRST`,
  },
  {
    name: 'FULL JOIN keeps orders without customers and customers without orders',
    sql: `SELECT c.customerId AS cid, o.customerId AS ocid, o.orderId FROM customers c FULL OUTER JOIN orders o ON o.customerId = c.customerId
          ORDER BY o.orderId NULLS FIRST, c.customerId NULLS FIRST`,
  },
  {
    name: 'FULL JOIN with a one-sided condition in ON keeps both sides whole',
    sql: `SELECT c.customerId, o.orderId FROM customers c FULL JOIN orders o ON o.customerId = c.customerId AND o.amount > 100 AND c.region <> 'east'
          ORDER BY o.orderId NULLS FIRST, c.customerId NULLS FIRST`,
  },
  {
    name: 'FULL JOIN filtered in WHERE, and grouped',
    sql: `SELECT COALESCE(c.customerId, o.customerId) AS who, COUNT(o.orderId) AS n, COUNT(c.customerId) AS known
          FROM customers c FULL JOIN orders o ON o.customerId = c.customerId WHERE o.orderId IS NULL OR o.qty > 2
          GROUP BY COALESCE(c.customerId, o.customerId) ORDER BY who`,
  },
  {
    name: 'a FULL JOIN without an equality (nested loop)',
    sql: `SELECT c.customerId, o.orderId FROM customers c FULL JOIN (SELECT orderId, qty FROM orders WHERE qty = 5) o ON o.qty < 3
          ORDER BY c.customerId NULLS FIRST, o.orderId NULLS FIRST`,
  },
];

const setCases: OracleCase[] = [
  {
    name: 'INTERSECT',
    sql: `SELECT customerId FROM customers INTERSECT SELECT customerId FROM orders ORDER BY 1`,
  },
  {
    name: 'EXCEPT, both ways',
    sql: `SELECT customerId FROM customers EXCEPT SELECT customerId FROM orders
          UNION ALL (SELECT customerId FROM orders EXCEPT SELECT customerId FROM customers) ORDER BY 1`,
  },
  {
    name: 'INTERSECT ALL and EXCEPT ALL count copies',
    sql: `SELECT status FROM orders INTERSECT ALL SELECT status FROM orders WHERE qty > 2 ORDER BY 1`,
  },
  {
    name: 'EXCEPT ALL',
    sql: `SELECT status, qty FROM orders EXCEPT ALL SELECT status, qty FROM orders WHERE amount > 0 ORDER BY 1, 2`,
  },
  {
    name: 'INTERSECT binds tighter than UNION; NULL rows compare equal',
    sql: `SELECT region FROM customers UNION SELECT 'west' INTERSECT SELECT 'west' ORDER BY 1 NULLS FIRST`,
  },
];

const groupingCases: OracleCase[] = [
  {
    name: 'ROLLUP with subtotals and a grand total, told apart by GROUPING()',
    sql: `SELECT status, customerId, SUM(amount) AS total, COUNT(*) AS n, GROUPING(status, customerId) AS g
          FROM orders GROUP BY ROLLUP(status, customerId) ORDER BY g, status, customerId`,
  },
  {
    name: 'CUBE',
    sql: `SELECT status, qty, COUNT(*) AS n, GROUPING(qty) AS gq FROM orders GROUP BY CUBE(status, qty)
          ORDER BY GROUPING(status), gq, status, qty`,
  },
  {
    name: 'GROUPING SETS with the empty set, and a plain key in front of ROLLUP',
    sql: `SELECT status, qty, MAX(amount) AS best FROM orders GROUP BY GROUPING SETS ((status), (qty), ())
          ORDER BY GROUPING(status, qty), status, qty`,
  },
  {
    name: 'a key, then ROLLUP; HAVING on a rolled-up row',
    sql: `SELECT status, qty, customerId, COUNT(*) AS n FROM orders GROUP BY status, ROLLUP(qty, customerId)
          HAVING COUNT(*) > 1 ORDER BY status, GROUPING(qty, customerId), qty, customerId`,
  },
];

const functionCases: OracleCase[] = [
  {
    name: 'EXTRACT from ISO strings and from epoch milliseconds',
    sql: `SELECT orderId, EXTRACT(YEAR FROM createdAt), EXTRACT(month FROM createdAt), EXTRACT(DAY FROM createdMs),
                 EXTRACT(HOUR FROM createdAt), EXTRACT(MINUTE FROM createdMs), EXTRACT(SECOND FROM createdAt),
                 EXTRACT(QUARTER FROM createdAt), EXTRACT(DOW FROM createdAt), EXTRACT(DOY FROM createdMs), EXTRACT(WEEK FROM createdAt)
          FROM orders ORDER BY orderId`,
    duck: `SELECT orderId, EXTRACT(YEAR FROM CAST(createdAt AS TIMESTAMP)), EXTRACT(month FROM CAST(createdAt AS TIMESTAMP)),
                 EXTRACT(DAY FROM epoch_ms(createdMs)), EXTRACT(HOUR FROM CAST(createdAt AS TIMESTAMP)),
                 EXTRACT(MINUTE FROM epoch_ms(createdMs)), EXTRACT(SECOND FROM CAST(createdAt AS TIMESTAMP)),
                 EXTRACT(QUARTER FROM CAST(createdAt AS TIMESTAMP)), EXTRACT(DOW FROM CAST(createdAt AS TIMESTAMP)),
                 EXTRACT(DOY FROM epoch_ms(createdMs)), EXTRACT(WEEK FROM CAST(createdAt AS TIMESTAMP))
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'SUBSTRING(s FROM a FOR n), LEFT and RIGHT (negative counts too)',
    sql: `SELECT orderId, SUBSTRING(status FROM 2 FOR 3), SUBSTRING(status FROM 3), SUBSTRING(status FOR 2),
                 LEFT(status, 2), RIGHT(status, 3), LEFT(status, -2), RIGHT(status, -1), LEFT(status, 0)
          FROM orders ORDER BY orderId`,
  },
  {
    name: 'CAST AS DATE and AS TIMESTAMP from ISO strings and epoch milliseconds',
    sql: `SELECT orderId, CAST(createdAt AS DATE), CAST(createdMs AS DATE), TO_EPOCH_MS(CAST(createdAt AS TIMESTAMP)),
                 TO_EPOCH_MS(CAST(createdMs AS TIMESTAMP))
          FROM orders ORDER BY orderId`,
    duck: `SELECT orderId, CAST(CAST(createdAt AS TIMESTAMP) AS DATE), CAST(epoch_ms(createdMs) AS DATE),
                 epoch_ms(CAST(createdAt AS TIMESTAMP)), epoch_ms(epoch_ms(createdMs))
          FROM orders ORDER BY orderId`,
  },
];

describe('RIGHT and FULL JOIN, against DuckDB', () => {
  it.each(joinCases)('$name', expectSameAsDuckDB);
});

describe('INTERSECT and EXCEPT, against DuckDB', () => {
  it.each(setCases)('$name', expectSameAsDuckDB);
});

describe('ROLLUP, CUBE, GROUPING SETS and GROUPING(), against DuckDB', () => {
  it.each(groupingCases)('$name', expectSameAsDuckDB);
});

describe('EXTRACT, SUBSTRING ... FROM ... FOR, LEFT, RIGHT and CAST to dates, against DuckDB', () => {
  it.each(functionCases)('$name', async (c) => {
    const ours = comparableRows(runAnalyst(c.sql).rows);
    // DynoTable's dates are ISO text (it has no date type); DuckDB's are dates.
    const theirs = (await duckRows(duck, c.duck ?? c.sql)).map((row) =>
      row.map((v) =>
        typeof v === 'string' && /^\d{4}-\d\d-\d\dT00:00:00.000Z$/.test(v) ? v.slice(0, 10) : v,
      ),
    );
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(theirs);
  });
});

describe('IS MISSING: an absent attribute, as opposed to a NULL one', () => {
  it('tells a missing region from a NULL region, where IS NULL sees both', () => {
    const rows = runAnalyst(
      `SELECT customerId, region IS NULL, region IS MISSING, region IS NOT MISSING FROM customers
       WHERE customerId IN ('c1', 'c4', 'c6') ORDER BY customerId`,
    ).rows;
    expect(rows).toEqual([
      ['c1', false, false, true],
      ['c4', true, true, false],
      ['c6', true, false, true],
    ]);
  });

  it('filters on missing attributes, also across a LEFT JOIN and in a map path', () => {
    const missingAmount = runAnalyst(
      'SELECT orderId FROM orders WHERE amount IS MISSING ORDER BY orderId',
    ).rows;
    expect(missingAmount.map((r) => r[0])).toEqual(['o011', 'o022', 'o033', 'o044']);
    const noOrders = runAnalyst(
      `SELECT c.customerId FROM customers c LEFT JOIN orders o ON o.customerId = c.customerId
       WHERE o.orderId IS MISSING ORDER BY 1`,
    ).rows;
    expect(noOrders.map((r) => r[0])).toEqual(['c7', 'c8', 'c9']);
    expect(
      runAnalyst('SELECT COUNT(*) FROM orders WHERE amount IS NOT MISSING AND amount IS NULL').rows,
    ).toEqual([[1]]);
  });
});
