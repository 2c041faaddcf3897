import { describe, expect, it } from 'vitest';
import { allItems, get, orders, rows, run, users } from '../fixtures/sql-fixture';

const orderRows = allItems.filter((i) => (get(i, 'SK') as string).startsWith('ORDER#'));

describe('SQL SELECT over heterogeneous items', () => {
  it('reads every table item, with missing attributes as NULL', () => {
    const result = rows('SELECT SK, name FROM Shop');
    expect(result).toHaveLength(allItems.length);
    const expected = allItems.map((i) => [get(i, 'SK'), get(i, 'name') ?? null]);
    expect(result).toEqual(expected);
  });

  it('filters with WHERE, comparing numbers exactly and never across types', () => {
    const result = rows('SELECT orderId FROM orders WHERE amount > 50').map((r) => r[0]);
    // amount is a string in o7 and missing in o9: neither passes `> 50`.
    const expected = orders
      .filter((o) => 'N' in (o.amount ?? {}) && Number((o.amount as { N: string }).N) > 50)
      .map((o) => get(o, 'orderId'));
    expect(result).toEqual(expected);
    expect(result).toContain('o11');
    expect(result).not.toContain('o7');
  });

  it('treats a missing attribute and NULL alike in IS NULL, and distinguishes them in results', () => {
    const missing = rows('SELECT userId FROM users WHERE deleted IS NULL').map((r) => r[0]);
    expect(missing).toEqual(users.map((u) => get(u, 'userId')));
    const shown = run("SELECT deleted FROM users WHERE userId = 'u12'").rows[0]![0];
    expect(shown).toBeNull(); // DynamoDB NULL → SQL NULL (shown as NULL, not absent)
    const absent = run("SELECT deleted FROM users WHERE userId = 'u1'").rows[0]![0];
    expect(absent).toBeUndefined();
  });

  it('reads nested paths, list elements and a quoted name containing a dot', () => {
    const result = rows(
      'SELECT userId, address.city, address.geo.lat, favorites[0], favorites[2].kind, "address.city" FROM users',
    );
    const expected = users.map((u) => {
      const address = get(u, 'address') as { city?: string; geo?: { lat?: string } } | undefined;
      const favorites = get(u, 'favorites') as unknown[] | undefined;
      return [
        get(u, 'userId'),
        address?.city ?? null,
        address?.geo?.lat ?? null,
        favorites?.[0] ?? null,
        (favorites?.[2] as { kind?: string } | undefined)?.kind ?? null,
        get(u, 'address.city') ?? null,
      ];
    });
    expect(result).toEqual(expected);
    expect(run('SELECT address.city, "address.city" FROM users').columns).toEqual([
      'address.city',
      'address.city_2',
    ]);
  });

  it('returns sets and lists as arrays, maps as objects', () => {
    expect(rows("SELECT tags, scores, favorites FROM users WHERE userId = 'u1'")).toEqual([
      [null, null, null],
    ]);
    const u = rows("SELECT tags, favorites, address FROM users WHERE userId = 'u4'")[0]!;
    expect(u[0]).toEqual(['vip', 't4']);
    expect(u[1]).toEqual(['fav4', '4', { kind: 'nested' }]);
    expect(u[2]).toEqual({ city: 'Bergen', zip: '0400', geo: { lat: '59.41' } });
    expect(rows("SELECT scores FROM users WHERE userId = 'u10'")[0]![0]).toEqual(['1', '2.5', '10']);
  });

  it('computes expressions with exact decimals and NULL propagation', () => {
    const result = rows(
      "SELECT orderId, amount * 2 + 0.1, amount || '!' FROM orders WHERE orderId IN ('o1', 'o7', 'o9', 'o11', 'o13')",
    );
    expect(result).toEqual([
      ['o1', '158.48', '79.19!'],
      ['o7', null, 'n/a!'],
      ['o9', null, null],
      ['o11', '24691357802469135780246913578024691356.1', '12345678901234567890123456789012345678!'],
      ['o13', '-0.9', '-0.5!'],
    ]);
  });

  it('orders with NULLs first ascending and last descending, mixed types in blocks', () => {
    const asc = rows('SELECT orderId, amount FROM orders ORDER BY amount, orderId').map((r) => r[0]);
    const key = (o: (typeof orders)[number]): [number, number | string] => {
      const a = o.amount;
      if (!a) return [0, 0];
      return 'N' in a ? [1, Number(a.N)] : [2, (a as { S: string }).S];
    };
    const expected = [...orders]
      .sort((x, y) => {
        const [tx, vx] = key(x);
        const [ty, vy] = key(y);
        if (tx !== ty) return tx - ty;
        if (vx !== vy) return vx < vy ? -1 : 1;
        return (get(x, 'orderId') as string) < (get(y, 'orderId') as string) ? -1 : 1;
      })
      .map((o) => get(o, 'orderId'));
    expect(asc).toEqual(expected);
    const desc = rows('SELECT orderId FROM orders ORDER BY amount DESC LIMIT 1');
    expect(desc[0]![0]).toBe('o7'); // the string sorts after every number
    expect(rows('SELECT orderId FROM orders ORDER BY amount DESC NULLS FIRST LIMIT 1')[0]![0]).toBe('o9');
  });

  it('applies LIMIT and OFFSET after ORDER BY', () => {
    const all = rows('SELECT orderId FROM orders ORDER BY orderId').map((r) => r[0]);
    expect(rows('SELECT orderId FROM orders ORDER BY orderId LIMIT 5 OFFSET 10').map((r) => r[0])).toEqual(
      all.slice(10, 15),
    );
    expect(rows('SELECT orderId FROM orders ORDER BY orderId OFFSET 38').map((r) => r[0])).toEqual(
      all.slice(38),
    );
    expect(rows('SELECT orderId FROM orders LIMIT 0')).toEqual([]);
  });

  it('removes duplicate rows with DISTINCT', () => {
    const result = rows('SELECT DISTINCT status FROM orders ORDER BY status').map((r) => r[0]);
    const statuses = orderRows.map((o) => (get(o, 'status') as string | undefined) ?? null);
    const expected = [...new Set(statuses)].sort((a, b) =>
      a === null ? -1 : b === null ? 1 : a < b ? -1 : 1,
    );
    expect(result).toEqual(expected);
  });

  it('expands * to the attributes the selected items have, keys first', () => {
    const result = run("SELECT * FROM payments WHERE orderId = 'o4'");
    expect(result.columns).toEqual(['PK', 'SK', 'orderId', 'paid']);
    expect(result.rows).toHaveLength(1);
    const joined = run(
      "SELECT * FROM payments p JOIN orders o ON p.orderId = o.orderId WHERE o.orderId = 'o4'",
    );
    expect(joined.columns.slice(0, 4)).toEqual(['p.PK', 'p.SK', 'p.orderId', 'p.paid']);
  });

  it('supports CASE, CAST, LIKE, BETWEEN, IN and string functions', () => {
    const result = rows(
      "SELECT orderId, CASE WHEN amount >= 50 THEN 'big' WHEN amount < 50 THEN 'small' ELSE 'unknown' END, CAST(amount AS STRING), UPPER(SPLIT_PART(PK, '#', 2)) FROM orders WHERE SK LIKE 'ORDER#o00_' AND orderId NOT IN ('o2', 'o3') AND (amount BETWEEN 0 AND 100 OR amount IS NULL OR TYPE_OF(amount) = 'S')",
    );
    const expected = orders
      .filter(
        (o) =>
          /^ORDER#o00.$/.test(get(o, 'SK') as string) && !['o2', 'o3'].includes(get(o, 'orderId') as string),
      )
      .filter(
        (o) =>
          !o.amount ||
          'S' in o.amount ||
          (Number((o.amount as { N: string }).N) >= 0 && Number((o.amount as { N: string }).N) <= 100),
      )
      .map((o) => {
        const a = o.amount;
        const size = !a || 'S' in a ? 'unknown' : 'N' in a && Number(a.N) >= 50 ? 'big' : 'small';
        return [
          get(o, 'orderId'),
          size,
          a ? get(o, 'amount') : null,
          (get(o, 'PK') as string).split('#')[1]!.toUpperCase(),
        ];
      });
    expect(result).toEqual(expected);
  });

  it('evaluates a SELECT without FROM', () => {
    expect(rows("SELECT 1 + 1, 'a' || 'b', 7 / 2, 7 % 3, NULL IS NULL, COALESCE(NULL, 3)")).toEqual([
      ['2', 'ab', '3.5', '1', true, '3'],
    ]);
  });
});
