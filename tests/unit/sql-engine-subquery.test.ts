import { describe, expect, it } from 'vitest';
import { byUser, get, orders, payments, rows, users } from '../fixtures/sql-fixture';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import type { Item } from '../../src/shared/dynamo/attribute-value';

const ids = (r: unknown[][]): unknown[] => r.map((x) => x[0]);

describe('SQL subqueries and UNION', () => {
  it('IN (SELECT ...) and NOT IN (SELECT ...)', () => {
    const paid = ids(
      rows('SELECT orderId FROM orders WHERE orderId IN (SELECT orderId FROM payments) ORDER BY orderId'),
    );
    const paidIds = new Set(payments.map((p) => get(p, 'orderId')));
    expect(paid).toEqual(
      orders
        .filter((o) => paidIds.has(get(o, 'orderId')))
        .map((o) => get(o, 'orderId') as string)
        .sort(),
    );
    const unpaid = ids(
      rows('SELECT orderId FROM orders WHERE orderId NOT IN (SELECT orderId FROM payments) ORDER BY orderId'),
    );
    expect(unpaid).toEqual(
      orders
        .filter((o) => !paidIds.has(get(o, 'orderId')))
        .map((o) => get(o, 'orderId') as string)
        .sort(),
    );
  });

  it('NOT IN a subquery that yields NULL matches nothing (SQL three-valued logic)', () => {
    expect(rows('SELECT orderId FROM orders WHERE userId NOT IN (SELECT name FROM users)')).toEqual([]);
  });

  it('a scalar subquery as a value, and an error when it returns several rows', () => {
    const result = rows(
      'SELECT orderId FROM orders WHERE amount > (SELECT AVG(amount) FROM orders WHERE amount < 100) ORDER BY orderId',
    );
    const small = orders
      .map((o) => (o.amount && 'N' in o.amount ? Number(o.amount.N) : undefined))
      .filter((a): a is number => a !== undefined && a < 100);
    const average = small.reduce((a, b) => a + b, 0) / small.length;
    expect(ids(result)).toEqual(
      orders
        .filter((o) => o.amount && 'N' in o.amount && Number(o.amount.N) > average)
        .map((o) => get(o, 'orderId') as string)
        .sort(),
    );
    expect(() => rows('SELECT (SELECT orderId FROM orders) FROM users')).toThrow(
      /returned 40 rows where one value is expected.*line 1, column 8/,
    );
  });

  it('EXISTS and NOT EXISTS over an uncorrelated subquery', () => {
    expect(
      rows("SELECT COUNT(*) FROM users WHERE EXISTS (SELECT 1 FROM orders WHERE status = 'PAID')")[0]![0],
    ).toBe(String(users.length));
    expect(
      rows("SELECT COUNT(*) FROM users WHERE NOT EXISTS (SELECT 1 FROM orders WHERE status = 'LOST')")[0]![0],
    ).toBe(String(users.length));
  });

  it('FROM (SELECT ...) with its own grouping', () => {
    const result = rows(
      'SELECT t.userId, t.n FROM (SELECT userId, COUNT(*) AS n FROM orders GROUP BY userId) t WHERE t.n >= 3 ORDER BY t.n DESC, t.userId',
    );
    const counts = new Map<string, number>();
    for (const o of orders)
      counts.set(get(o, 'userId') as string, (counts.get(get(o, 'userId') as string) ?? 0) + 1);
    const expected = [...counts]
      .filter(([, n]) => n >= 3)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([u, n]) => [u, String(n)]);
    expect(result).toEqual(expected);
    expect(() => rows('SELECT t.missing FROM (SELECT userId FROM orders) t')).toThrow(
      /"missing" is not a column of t/,
    );
  });

  it('joins a derived table to an entity view', () => {
    const result = rows(
      'SELECT u.userId, t.n FROM users u JOIN (SELECT userId, COUNT(*) AS n FROM orders GROUP BY userId) t ON t.userId = u.userId ORDER BY u.userId',
    );
    const expected = users
      .map((u) => [get(u, 'userId'), orders.filter((o) => get(o, 'userId') === get(u, 'userId')).length])
      .filter(([, n]) => (n as number) > 0)
      .map(([u, n]) => [u, String(n)])
      .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
    expect(result).toEqual(expected);
  });

  it('UNION removes duplicates, UNION ALL keeps them, ORDER BY and LIMIT apply to the whole', () => {
    const union = ids(rows('SELECT userId FROM orders UNION SELECT userId FROM users ORDER BY 1'));
    const expected = [...new Set([...orders, ...users].map((i) => get(i, 'userId') as string))].sort();
    expect(union).toEqual(expected);
    const all = rows('SELECT userId FROM orders UNION ALL SELECT userId FROM users');
    expect(all).toHaveLength(orders.length + users.length);
    expect(
      ids(rows('SELECT userId AS id FROM orders UNION SELECT userId FROM users ORDER BY id DESC LIMIT 3')),
    ).toEqual([...expected].reverse().slice(0, 3));
    expect(() => rows('SELECT userId, name FROM users UNION SELECT userId FROM orders')).toThrow(
      /same number of columns/,
    );
  });

  it('finds orders whose user no longer exists two ways, with the same answer', () => {
    const expected = orders
      .filter((o) => !byUser.has(get(o, 'userId') as string))
      .map((o) => get(o, 'orderId') as string)
      .sort();
    expect(
      ids(rows('SELECT orderId FROM orders WHERE userId NOT IN (SELECT userId FROM users) ORDER BY 1')),
    ).toEqual(expected);
    expect(
      ids(
        rows(
          'SELECT o.orderId FROM orders o LEFT JOIN users u ON u.userId = o.userId WHERE u.PK IS NULL ORDER BY 1',
        ),
      ),
    ).toEqual(expected);
  });
});

describe('correlated subqueries keyed by the outer value', () => {
  // Outer values that a key built from the value could confuse: text "5" and number 5, NULL
  // and missing, a 20-digit number (a BigInt decimal, an object) and the same digits as text.
  const S = (s: string) => ({ S: s });
  const N = (n: string) => ({ N: n });
  const outer = [
    S('a'),
    S('5'),
    N('5'),
    { NULL: true as const },
    undefined,
    N('12345678901234567890'),
    S('12345678901234567890'),
  ].map((k, i): Item => (k ? { id: N(String(i)), k } : { id: N(String(i)) }));
  const inner = [S('5'), S('5'), N('5'), N('12345678901234567890'), S('a'), { NULL: true as const }].map(
    (k, i) => ({
      pk: N(String(i)),
      k,
    }),
  );
  const run = (sql: string) =>
    runLocal(sql, [
      { info: tableInfo('t', 'id'), items: outer },
      { info: tableInfo('u', 'pk'), items: inner },
    ]).rows;

  it('tells text from numbers and NULL from missing, decorrelated or not', () => {
    // The first subquery is decorrelated (one equality, an aggregate); the second reads t.k
    // outside its equality, so it runs per outer value.
    expect(
      run(
        `SELECT id, (SELECT COUNT(*) FROM u WHERE u.k = t.k) AS n,
                (SELECT COUNT(*) FROM u WHERE u.k = t.k OR t.k IS MISSING) AS m,
                EXISTS (SELECT 1 FROM u WHERE u.k = t.k) AS e
         FROM t ORDER BY id`,
      ),
    ).toEqual([
      [0, 1, 1, true],
      [1, 2, 2, true],
      [2, 1, 1, true],
      [3, 0, 0, false],
      [4, 0, 6, false],
      [5, 1, 1, true],
      [6, 0, 0, false],
    ]);
  });
});
