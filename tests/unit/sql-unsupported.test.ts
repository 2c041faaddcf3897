import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../src/shared/errors';
import { duckTables, runAnalyst } from '../fixtures/sql-analyst-fixture';
import { comparableRows, duckdbWith, duckRows } from '../support/duckdb-oracle';

/**
 * Constructs analysts bring from other engines that DynoTable does not run: each is refused as
 * SqlUnsupported with a sentence that names it and says how to write it instead, and where
 * DuckDB runs the construct, the rewrite the message gives answers what DuckDB answers.
 */
let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await duckdbWith(duckTables);
});

function refusal(sql: string): AppFailure {
  try {
    runAnalyst(sql);
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
  throw new Error(`ran: ${sql}`);
}

const REFUSED: [sql: string, message: RegExp][] = [
  ['SELECT * FROM orders o, LATERAL (SELECT 1 AS x) l', /^LATERAL is not supported .*correlated subquery/],
  [
    'SELECT COUNT(*) FILTER (WHERE qty > 2) FROM orders',
    /FILTER \(WHERE \.\.\.\) is not supported; write .*CASE WHEN/,
  ],
  [
    'SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY amount) FROM orders',
    /WITHIN GROUP .* is not supported; number the rows/,
  ],
  [
    'SELECT DISTINCT ON (customerId) customerId, orderId FROM orders',
    /DISTINCT ON .* is not supported; .*QUALIFY/,
  ],
  ['SELECT TOP 3 orderId FROM orders', /SELECT TOP n is not supported; write LIMIT n/],
  ['SELECT orderId FROM orders FETCH FIRST 3 ROWS ONLY', /FETCH FIRST .* is not supported; write LIMIT n/],
  ['SELECT orderId FROM orders LIMIT ALL', /LIMIT ALL is not supported/],
  ['SELECT status, COUNT(*) FROM orders GROUP BY ALL', /GROUP BY ALL is not supported; list the columns/],
  ['SELECT amount::int FROM orders', /x::type cast is not supported; write CAST\(x AS type\)/],
  [
    "SELECT * FROM orders WHERE status ~ '^P'",
    /Regular expressions \(~\) are not supported; match with LIKE/,
  ],
  [
    "SELECT * FROM orders WHERE status SIMILAR TO 'P%'",
    /Regular expressions \(SIMILAR TO\) are not supported/,
  ],
  ["SELECT * FROM orders WHERE status REGEXP '^P'", /Regular expressions \(REGEXP\) are not supported/],
  ["SELECT NOW() - INTERVAL '1 day'", /INTERVAL literals are not supported; .*DATE_ADD/],
  ['SELECT * FROM (VALUES (1, 2)) v(a, b)', /A VALUES list is not supported; .*UNION ALL/],
  ['SELECT * FROM UNNEST(x)', /table function \(UNNEST\(\.\.\.\) in FROM\) is not supported/],
  ["SELECT * FROM orders PIVOT (SUM(amount) FOR status IN ('NEW'))", /PIVOT is not supported; .*CASE WHEN/],
  ['SELECT * FROM orders UNPIVOT (v FOR k IN (qty, amount))', /UNPIVOT is not supported; .*UNION ALL/],
  [
    'SELECT LAG(amount) IGNORE NULLS OVER (ORDER BY orderId) FROM orders',
    /IGNORE NULLS is not supported; drop the rows/,
  ],
  [
    'SELECT SUM(qty) OVER (ORDER BY orderId ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM orders',
    /frame with EXCLUDE is not supported; subtract/,
  ],
  [
    "SELECT orderId FROM orders WHERE amount > ANY (SELECT amount FROM orders WHERE status = 'NEW')",
    /comparison with ANY \(subquery\) is not supported; for ANY write EXISTS/,
  ],
  [
    'SELECT orderId FROM orders WHERE qty >= ALL (SELECT qty FROM orders)',
    /comparison with ALL .* MIN or MAX/,
  ],
  [
    'SELECT orderId FROM orders WHERE (customerId, qty) IN (SELECT customerId, 1 FROM customers)',
    /Row values .* are not supported; compare each column/,
  ],
  ["SELECT orderId FROM orders WHERE (customerId, qty) = ('c1', 3)", /Row values .* are not supported/],
  ['SELECT * FROM orders TABLESAMPLE (10 PERCENT)', /TABLESAMPLE is not supported/],
  ["SELECT POSITION('a' IN status) FROM orders", /POSITION\(\.\.\. IN \.\.\.\) is not supported; .*CONTAINS/],
  ['EXPLAIN SELECT * FROM orders', /EXPLAIN is not supported as a statement; .*Plan/],
  ['SELECT * INTO copy FROM orders', /SELECT \.\.\. INTO is not supported: the SQL workbench only reads/],
  ['SELECT * FROM orders FOR UPDATE', /FOR UPDATE is not supported .*leave it out/],
  [
    'SELECT * FROM orders o SEMI JOIN customers c ON c.customerId = o.customerId',
    /SEMI JOIN is not supported; write WHERE EXISTS/,
  ],
  [
    'SELECT * FROM orders o ANTI JOIN customers c ON c.customerId = o.customerId',
    /ANTI JOIN is not supported; write WHERE NOT EXISTS/,
  ],
  [
    'SELECT * FROM orders o ASOF JOIN customers c ON c.customerId >= o.customerId',
    /ASOF JOIN is not supported/,
  ],
  ["SELECT STRING_AGG(status, ',') FROM orders", /^STRING_AGG\(\) is not supported; /],
  [
    'SELECT customerId, MEDIAN(amount) FROM orders GROUP BY customerId',
    /^MEDIAN\(\) is not supported; number/,
  ],
  ['SELECT STDDEV(amount) FROM orders', /^STDDEV\(\) is not supported; compute it from SUM/],
  ['SELECT BOOL_AND(qty > 1) FROM orders', /^BOOL_AND\(\) is not supported; write MIN\(CASE/],
  [
    'SELECT FROBNICATE(qty) FROM orders',
    /^FROBNICATE\(\) is not supported: it is no function DynoTable knows/,
  ],
  ['SELECT CURRENT_DATE', /^CURRENT_DATE is not supported; write DATE_TRUNC\('day', NOW\(\)\)/],
  [
    'SELECT orderId FROM orders WHERE createdAt < CURRENT_TIMESTAMP',
    /^CURRENT_TIMESTAMP is not supported; write NOW\(\)/,
  ],
];

describe('constructs DynoTable does not run', () => {
  it.each(REFUSED)('%s', (sql, message) => {
    const error = refusal(sql);
    expect(error.code).toBe('SqlUnsupported');
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/not supported/);
    expect(error.details).toMatchObject({ line: 1 });
  });

  it('keeps those words as attribute names wherever a statement parses', () => {
    const run = runAnalyst(
      'SELECT filter, lateral, top, pivot, fetch, "CURRENT_DATE", o.current_date FROM orders o WHERE orderId = \'o001\'',
    );
    expect(run.rows).toEqual([[undefined, undefined, undefined, undefined, undefined, undefined, undefined]]);
  });

  it('still says what is wrong when a statement with such a name has another mistake', () => {
    const error = refusal('SELECT lateral, filter FROM orders WHERE');
    expect(error.code).toBe('SqlSyntaxError');
    expect(error.message).toMatch(/statement ended/);
  });
});

/** DuckDB runs the refused construct; DynoTable runs the rewrite its message gives. */
const REWRITES: { name: string; refused: string; rewrite: string }[] = [
  {
    name: 'FILTER (WHERE ...) as CASE WHEN inside the aggregate',
    refused: `SELECT customerId, COUNT(*) FILTER (WHERE qty > 2) AS big, SUM(amount) FILTER (WHERE status = 'PAID') AS paid
              FROM orders GROUP BY customerId ORDER BY customerId`,
    rewrite: `SELECT customerId, COUNT(CASE WHEN qty > 2 THEN 1 END) AS big, SUM(CASE WHEN status = 'PAID' THEN amount END) AS paid
              FROM orders GROUP BY customerId ORDER BY customerId`,
  },
  {
    name: 'DISTINCT ON as QUALIFY ROW_NUMBER() = 1',
    refused: `SELECT DISTINCT ON (customerId) customerId, orderId FROM orders
              ORDER BY customerId, amount DESC NULLS LAST, orderId`,
    rewrite: `SELECT customerId, orderId FROM orders
              QUALIFY ROW_NUMBER() OVER (PARTITION BY customerId ORDER BY amount DESC NULLS LAST, orderId) = 1
              ORDER BY customerId`,
  },
  {
    name: '> ANY (subquery) as EXISTS',
    refused: `SELECT orderId FROM orders WHERE amount > ANY (SELECT amount FROM orders WHERE status = 'NEW') ORDER BY orderId`,
    rewrite: `SELECT orderId FROM orders o WHERE EXISTS
                (SELECT 1 FROM orders p WHERE p.status = 'NEW' AND o.amount > p.amount) ORDER BY orderId`,
  },
  {
    name: 'a row value compared column by column',
    refused: `SELECT orderId FROM orders WHERE (customerId, qty) = ('c2', 3) ORDER BY orderId`,
    rewrite: `SELECT orderId FROM orders WHERE customerId = 'c2' AND qty = 3 ORDER BY orderId`,
  },
  {
    name: 'a row value IN a subquery as EXISTS',
    refused: `SELECT orderId FROM orders WHERE (customerId, status) IN (SELECT customerId, 'PAID' FROM customers WHERE region = 'north') ORDER BY orderId`,
    rewrite: `SELECT orderId FROM orders o WHERE EXISTS
                (SELECT 1 FROM customers c WHERE c.region = 'north' AND c.customerId = o.customerId AND 'PAID' = o.status) ORDER BY orderId`,
  },
  {
    name: 'a VALUES list as SELECT ... UNION ALL',
    refused: `SELECT a, b FROM (VALUES (1, 'x'), (2, 'y')) v(a, b) ORDER BY a`,
    rewrite: `SELECT a, b FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y') v ORDER BY a`,
  },
];

describe('the rewrites the messages give answer what DuckDB answers for the refused construct', () => {
  it.each(REWRITES)('$name', async ({ refused, rewrite }) => {
    expect(refusal(refused).code).toBe('SqlUnsupported');
    const ours = comparableRows(runAnalyst(rewrite).rows);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(await duckRows(duck, refused));
  });
});
