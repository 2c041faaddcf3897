import { describe, expect, it } from 'vitest';
import { byUser, get, orders, payments, rows, users } from '../fixtures/sql-fixture';

const sortRows = (r: unknown[][]): unknown[][] =>
  [...r].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

describe('SQL joins over entity views of one table', () => {
  it('INNER JOIN keeps only orders whose user exists', () => {
    const result = rows('SELECT o.orderId, u.userId FROM orders o JOIN users u ON o.userId = u.userId');
    const expected: unknown[][] = [];
    for (const o of orders) {
      const u = byUser.get(get(o, 'userId') as string);
      if (u) expected.push([get(o, 'orderId'), get(u, 'userId')]);
    }
    expect(sortRows(result)).toEqual(sortRows(expected));
    expect(result.length).toBeLessThan(orders.length);
  });

  it('LEFT JOIN keeps every order and finds the ones whose user no longer exists', () => {
    const all = rows('SELECT o.orderId, u.name FROM orders o LEFT JOIN users u ON o.userId = u.userId');
    expect(all).toHaveLength(orders.length);
    const orphans = rows(
      'SELECT o.orderId FROM orders o LEFT JOIN users u ON o.userId = u.userId WHERE u.userId IS NULL ORDER BY o.orderId',
    ).map((r) => r[0]);
    const expected = orders
      .filter((o) => !byUser.has(get(o, 'userId') as string))
      .map((o) => get(o, 'orderId') as string)
      .sort();
    expect(orphans).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('LEFT JOIN conditions in ON restrict matches without dropping left rows', () => {
    const result = rows(
      'SELECT o.orderId, p.SK FROM orders o LEFT JOIN payments p ON p.orderId = o.orderId AND p.paid > 10 ORDER BY o.orderId',
    );
    const expected = orders
      .map((o) => {
        const p = payments.find(
          (x) => get(x, 'orderId') === get(o, 'orderId') && Number(get(x, 'paid')) > 10,
        );
        return [get(o, 'orderId'), p ? get(p, 'SK') : null];
      })
      .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
    expect(result).toEqual(expected);
  });

  it('joins a table with itself (users sharing a city)', () => {
    const result = rows(
      'SELECT a.userId, b.userId FROM users a JOIN users b ON a.address.city = b.address.city WHERE a.userId < b.userId',
    );
    const expected: unknown[][] = [];
    for (const a of users) {
      for (const b of users) {
        const ca = (get(a, 'address') as { city?: string } | undefined)?.city;
        const cb = (get(b, 'address') as { city?: string } | undefined)?.city;
        if (ca !== undefined && ca === cb && (get(a, 'userId') as string) < (get(b, 'userId') as string))
          expected.push([get(a, 'userId'), get(b, 'userId')]);
      }
    }
    expect(sortRows(result)).toEqual(sortRows(expected));
  });

  it('joins three bindings and a join condition that is not an equality', () => {
    const result = rows(
      'SELECT u.userId, o.orderId, p.paid FROM users u JOIN orders o ON o.userId = u.userId JOIN payments p ON p.orderId = o.orderId AND p.paid >= u.age',
    );
    const expected: unknown[][] = [];
    for (const u of users) {
      for (const o of orders) {
        if (get(o, 'userId') !== get(u, 'userId')) continue;
        for (const p of payments) {
          if (get(p, 'orderId') !== get(o, 'orderId') || get(u, 'age') === undefined) continue;
          if (Number(get(p, 'paid')) >= Number(get(u, 'age')))
            expected.push([get(u, 'userId'), get(o, 'orderId'), get(p, 'paid')]);
        }
      }
    }
    // DynamoDB keeps one spelling per number: 1E+2 comes back as 100.
    const canonical = (r: unknown[][]): unknown[][] => sortRows(r.map(([u, o, p]) => [u, o, Number(p)]));
    expect(canonical(result)).toEqual(canonical(expected));
  });

  it('CROSS JOIN pairs every row, and a comma join is the same', () => {
    expect(rows('SELECT COUNT(*) FROM users a CROSS JOIN payments b')[0]![0]).toBe(
      String(users.length * payments.length),
    );
    expect(rows('SELECT COUNT(*) FROM users a, payments b')[0]![0]).toBe(
      String(users.length * payments.length),
    );
  });

  it('the same table by name and by view reads the same items', () => {
    const byName = rows("SELECT SK FROM Shop WHERE SK LIKE 'PAYMENT#%' ORDER BY SK");
    const byView = rows('SELECT SK FROM Shop.payments ORDER BY SK');
    expect(byView).toEqual(byName);
    expect(byView).toHaveLength(payments.length);
  });

  it('names an ambiguous unqualified column and an unknown alias as errors with a position', () => {
    expect(() => rows('SELECT userId FROM orders o JOIN users u ON o.userId = u.userId')).toThrow(
      /ambiguous.*line 1, column 8/,
    );
    expect(() => rows('SELECT x.userId FROM orders o')).not.toThrow(); // x.userId reads attribute x, path userId
    expect(() => rows('SELECT * FROM nowhere')).toThrow(/no table or entity view called "nowhere"/);
  });
});
