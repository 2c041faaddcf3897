import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { type Num, numToString } from '../../src/main/sql/values/decimal';
import { BIG, byUser, get, orders, rows, run, scaled, users } from '../fixtures/sql-fixture';

const numericAmount = (o: (typeof orders)[number]): string | undefined =>
  o.amount && 'N' in o.amount ? o.amount.N : undefined;

describe('SQL GROUP BY and aggregates', () => {
  it('counts, sums exactly, averages and finds extremes per group', () => {
    const sql =
      'SELECT status, COUNT(*), COUNT(amount), COUNT(DISTINCT userId), SUM(amount), AVG(amount), MIN(amount), MAX(orderId) FROM orders GROUP BY status ORDER BY status';
    const result = { rows: rows(sql), warnings: run(sql).warnings };
    const groups = new Map<string | null, typeof orders>();
    for (const o of orders) {
      const key = (get(o, 'status') as string | undefined) ?? null;
      groups.set(key, [...(groups.get(key) ?? []), o]);
    }
    const keys = [...groups.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
    expect(result.rows.map((r) => r[0] ?? null)).toEqual(keys);
    result.rows.forEach((row, i) => {
      const members = groups.get(keys[i]!)!;
      const numeric = members.map(numericAmount).filter((x): x is string => x !== undefined);
      const sum = numeric.reduce((acc, x) => acc + scaled(x), 0n);
      const [, count, countAmount, distinctUsers, total, average, min, maxId] = row;
      expect(count).toBe(String(members.length));
      expect(countAmount).toBe(String(members.filter((o) => o.amount !== undefined).length));
      expect(distinctUsers).toBe(String(new Set(members.map((o) => get(o, 'userId'))).size));
      expect(scaled(String(total))).toBe(sum);
      // AVG has 38 significant digits; compare to the exact quotient within that precision.
      const exact = sum / BigInt(numeric.length);
      const error = scaled(String(average)) - exact;
      expect(error < 0n ? -error : error).toBeLessThanOrEqual(
        (exact < 0n ? -exact : exact) / 10n ** 36n + 1n,
      );
      expect(scaled(String(min))).toBe(numeric.map(scaled).reduce((a, b) => (b < a ? b : a)));
      expect(maxId).toBe(
        members
          .map((o) => get(o, 'orderId') as string)
          .sort()
          .at(-1),
      );
    });
    expect(result.warnings.join(' ')).toMatch(/SUM\(amount\) skipped 1 value that is not a number/);
  });

  it('sums 38-digit numbers without losing a digit', () => {
    const total = rows(
      "SELECT SUM(amount) FROM orders WHERE orderId IN ('o11', 'o1', 'o2')",
    )[0]![0] as string;
    const expected = ['o11', 'o1', 'o2']
      .map((id) => numericAmount(orders.find((o) => get(o, 'orderId') === id)!)!)
      .reduce((a, x) => a + scaled(x), 0n);
    expect(scaled(total)).toBe(expected);
    expect(total.startsWith(BIG.slice(0, 34))).toBe(true);
    expect(rows(`SELECT COUNT(*) FROM orders WHERE amount = ${BIG}`)[0]![0]).toBe('1');
    expect(rows(`SELECT COUNT(*) FROM orders WHERE amount = ${BIG.slice(0, -1)}9`)[0]![0]).toBe('0');
    expect(rows(`SELECT COUNT(*) FROM orders WHERE amount > ${BIG.slice(0, -1)}7`)[0]![0]).toBe('1');
  });

  it('JOIN + GROUP BY: revenue per customer name', () => {
    const result = rows(
      'SELECT u.name, COUNT(*) AS orders, SUM(o.amount) AS revenue FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name ORDER BY revenue DESC',
    );
    const groups = new Map<string, { count: number; sum: bigint; any: boolean; name: unknown }>();
    for (const o of orders) {
      const u = byUser.get(get(o, 'userId') as string);
      if (!u) continue;
      const nameValue = u.name;
      const key = JSON.stringify(nameValue ?? null);
      const g = groups.get(key) ?? { count: 0, sum: 0n, any: false, name: get(u, 'name') ?? null };
      g.count += 1;
      const a = numericAmount(o);
      if (a !== undefined) {
        g.sum += scaled(a);
        g.any = true;
      }
      groups.set(key, g);
    }
    expect(result).toHaveLength(groups.size);
    for (const [name, count, revenue] of result) {
      const g = [...groups.values()].find((x) => x.name === name)!;
      expect(count).toBe(String(g.count));
      expect(revenue === null ? null : scaled(revenue as string)).toBe(g.any ? g.sum : null);
    }
    const sums = result.filter((r) => r[2] !== null).map((r) => scaled(r[2] as string));
    expect(sums).toEqual([...sums].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it('groups by expressions, aliases and positions, and filters groups with HAVING', () => {
    const byExpr = rows(
      "SELECT SPLIT_PART(SK, '#', 1) AS kind, COUNT(*) AS n FROM Shop GROUP BY SPLIT_PART(SK, '#', 1) HAVING COUNT(*) > 15 ORDER BY kind",
    );
    const counts = new Map<string, number>();
    for (const i of [...users, ...orders])
      counts.set(
        (get(i, 'SK') as string).split('#')[0]!,
        (counts.get((get(i, 'SK') as string).split('#')[0]!) ?? 0) + 1,
      );
    counts.set('PAYMENT', 20);
    const expected = [...counts]
      .filter(([, n]) => n > 15)
      .sort()
      .map(([k, n]) => [k, String(n)]);
    expect(byExpr).toEqual(expected);
    expect(
      rows(
        "SELECT SPLIT_PART(SK, '#', 1) AS kind, COUNT(*) AS n FROM Shop GROUP BY kind HAVING n > 15 ORDER BY 1",
      ),
    ).toEqual(expected);
    expect(
      rows(
        "SELECT SPLIT_PART(SK, '#', 1) AS kind, COUNT(*) AS n FROM Shop GROUP BY 1 HAVING COUNT(*) > 15 ORDER BY n DESC, kind",
      ).map((r) => r[0]),
    ).toEqual(
      [...expected].sort((a, b) => Number(b[1]) - Number(a[1]) || (a[0]! < b[0]! ? -1 : 1)).map((r) => r[0]),
    );
  });

  it('aggregates without GROUP BY give one row, even over no rows', () => {
    expect(rows("SELECT COUNT(*), SUM(amount), MAX(amount) FROM orders WHERE orderId = 'none'")).toEqual([
      ['0', null, null],
    ]);
  });

  it('groups missing and NULL keys together, and distinguishes a number 7 from the string "7"', () => {
    const result = rows('SELECT name, COUNT(*) FROM users GROUP BY name');
    const groups = new Map<string, number>();
    for (const u of users)
      groups.set(JSON.stringify(u.name ?? null), (groups.get(JSON.stringify(u.name ?? null)) ?? 0) + 1);
    expect(result).toHaveLength(groups.size);
    expect(
      run('SELECT TYPE_OF(name), COUNT(*) FROM users GROUP BY TYPE_OF(name) ORDER BY 1').rows.map((r) =>
        r.map(String),
      ),
    ).toEqual([
      ['MISSING', '1'],
      ['N', '1'],
      ['S', '10'],
    ]);
  });

  it('rejects columns that are neither grouped nor aggregated, and aggregates in WHERE', () => {
    expect(() => rows('SELECT status, orderId, COUNT(*) FROM orders GROUP BY status')).toThrow(
      /orderId must be in GROUP BY/,
    );
    expect(() => rows('SELECT orderId FROM orders WHERE COUNT(*) > 1')).toThrow(
      /COUNT\(\) cannot be used in WHERE/,
    );
  });
});

// SUM/AVG add whole groups as integers of one common scale while that stays under 2^53, and
// fall back to ExactSum otherwise; either way the total must be the exact decimal sum.
describe('SUM over many decimals per group', () => {
  const decimal = fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.nat({ max: 99_999 }), fc.constant(999_999_999_999_999), fc.nat()),
      fc.nat({ max: 6 }),
    )
    .map(([negative, units, places]) => {
      const text = String(units);
      const body =
        places === 0 ? text : `${text.slice(0, -places) || '0'}.${text.slice(-places).padStart(places, '0')}`;
      return `${negative ? '-' : ''}${body}`;
    });
  it('is exact whichever path adds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 3 }), fc.oneof(decimal, decimal, decimal, fc.constant('x'))), {
          minLength: 1,
          maxLength: 300,
        }),
        (values) => {
          const items: Item[] = values.map(([group, amount], i) => ({
            pk: { S: `p${i}` },
            g: { N: String(group) },
            amount: amount === 'x' ? { S: amount } : { N: amount },
          }));
          const { rows: result } = runLocal('SELECT g, SUM(amount), AVG(amount) FROM T GROUP BY g', [
            { info: tableInfo('T', 'pk'), items },
          ]);
          for (const [g, total, average] of result) {
            const numbers = values.filter(([group, a]) => group === Number(g) && a !== 'x').map(([, a]) => a);
            if (numbers.length === 0) {
              expect(total).toBeNull();
              continue;
            }
            const sum = numbers.reduce((acc, x) => acc + scaled(x), 0n);
            expect(scaled(numToString(total as Num))).toBe(sum);
            const exact = sum / BigInt(numbers.length);
            const error = scaled(numToString(average as Num)) - exact;
            expect(error < 0n ? -error : error).toBeLessThanOrEqual(
              (exact < 0n ? -exact : exact) / 10n ** 36n + 1n,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
