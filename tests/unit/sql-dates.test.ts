import { describe, expect, it } from 'vitest';
import { get, orders, rows } from '../fixtures/sql-fixture';

const ms = (o: (typeof orders)[number]): number => {
  const v = o.createdAt!;
  return 'N' in v ? Number(v.N) : Date.parse((v as { S: string }).S);
};

describe('SQL date helpers over ISO strings and epoch milliseconds', () => {
  it('to_epoch_ms and to_iso read both forms the same way', () => {
    const result = rows(
      'SELECT orderId, TO_EPOCH_MS(createdAt), TO_ISO(createdAt) FROM orders ORDER BY orderId',
    );
    const expected = [...orders]
      .sort((a, b) => ((get(a, 'orderId') as string) < (get(b, 'orderId') as string) ? -1 : 1))
      .map((o) => [get(o, 'orderId'), String(ms(o)), new Date(ms(o)).toISOString()]);
    expect(result).toEqual(expected);
    expect(orders.some((o) => 'N' in o.createdAt!)).toBe(true);
  });

  it('date_trunc groups mixed ISO and epoch dates by month', () => {
    const result = rows(
      "SELECT DATE_TRUNC('month', createdAt) AS month, COUNT(*) FROM orders GROUP BY month ORDER BY month",
    );
    const counts = new Map<string, number>();
    for (const o of orders) {
      const d = new Date(ms(o));
      const key = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(result).toEqual([...counts].sort().map(([k, n]) => [k, String(n)]));
  });

  it('date_part, date_add, date_diff and now()', () => {
    expect(
      rows(
        "SELECT DATE_PART('year', '2024-02-29T10:00:00Z'), DATE_PART('month', 1709200800000), DATE_PART('dow', '2024-06-15'), DATE_PART('week', '2024-01-01')",
      ),
    ).toEqual([['2024', '2', '6', '1']]);
    expect(
      rows(
        "SELECT DATE_ADD('month', 1, '2024-01-31'), DATE_ADD('day', -1, '2024-03-01T00:00:00+02:00'), DATE_ADD('hours', 2, 0)",
      ),
    ).toEqual([['2024-02-29T00:00:00.000Z', '2024-02-28T22:00:00.000Z', '1970-01-01T02:00:00.000Z']]);
    expect(
      rows(
        "SELECT DATE_DIFF('day', '2024-01-01', '2024-03-01'), DATE_DIFF('month', '2024-01-15', '2024-02-14'), DATE_DIFF('month', '2024-01-31', '2024-02-29'), DATE_DIFF('year', '2020-06-01', '2024-05-31')",
      ),
    ).toEqual([['60', '0', '1', '3']]);
    expect(rows('SELECT NOW(), TO_EPOCH_MS(NOW())')).toEqual([
      ['2024-06-15T12:00:00.000Z', String(Date.UTC(2024, 5, 15, 12))],
    ]);
    expect(rows("SELECT TO_EPOCH_MS('not a date'), DATE_TRUNC('fortnight', NOW())")).toEqual([[null, null]]);
  });

  it('filters the last 30 days with ISO comparisons and with epoch arithmetic alike', () => {
    const since = Date.UTC(2024, 5, 15, 12) - 30 * 86_400_000;
    const expected = orders
      .filter((o) => ms(o) >= since)
      .map((o) => get(o, 'orderId') as string)
      .sort();
    const viaEpoch = rows(
      'SELECT orderId FROM orders WHERE TO_EPOCH_MS(createdAt) >= TO_EPOCH_MS(NOW()) - 30 * 86400000 ORDER BY orderId',
    ).map((r) => r[0]);
    const viaIso = rows(
      "SELECT orderId FROM orders WHERE TO_ISO(createdAt) >= DATE_ADD('day', -30, NOW()) ORDER BY orderId",
    ).map((r) => r[0]);
    expect(viaEpoch).toEqual(expected);
    expect(viaIso).toEqual(expected);
  });
});
