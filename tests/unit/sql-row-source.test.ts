import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { numToString, type Num } from '../../src/main/sql/values/decimal';

// Rows link to their item only when each row is exactly one item; the key each row carries
// must be the key of the item whose values the row shows, after filters, sorts and limits.
const orders = tableInfo('Orders', 'pk', 'sk');
const users = tableInfo('Users', '__proto__');
const orderItems: Item[] = [3, 1, 2, 5, 4].map((n) => ({
  pk: { S: `C#${n % 2}` },
  sk: { N: String(n) },
  total: { N: String(n * 10) },
}));
const user: Item = { name: { S: 'Ada' } };
Object.defineProperty(user, '__proto__', { value: { S: 'u1' }, enumerable: true });
const userItems = [user];
const data = [
  { info: orders, items: orderItems },
  { info: users, items: userItems },
];

function links(sql: string) {
  const { result, rows } = runLocal(sql, data);
  const source = result.source;
  return { source, rows, keys: rows.map((_, i) => source?.keyOf(i)) };
}

describe('SQL rows that come from one item', () => {
  it('carry the key of the item they show, through WHERE, ORDER BY, LIMIT and window functions', () => {
    const { source, rows, keys } = links(
      'SELECT total, ROW_NUMBER() OVER (ORDER BY total) AS n FROM Orders WHERE total > 10 ORDER BY total DESC LIMIT 3',
    );
    expect(source?.table).toBe('Orders');
    expect(source?.keys.partitionKey.name).toBe('pk');
    expect(rows.length).toBe(3);
    rows.forEach((row, i) => {
      const total = numToString(row[0] as Num);
      const item = orderItems.find((o) => o.total !== undefined && 'N' in o.total && o.total.N === total)!;
      expect(keys[i]).toEqual({ pk: item.pk, sk: item.sk });
    });
    expect(keys[0]).toEqual({ pk: { S: 'C#1' }, sk: { N: '5' } });
  });

  it('keeps a key attribute named __proto__ as data', () => {
    const { keys } = links('SELECT name FROM Users');
    expect(Object.keys(keys[0]!)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(keys[0], '__proto__')?.value).toEqual({ S: 'u1' });
  });

  it.each([
    ['GROUP BY', 'SELECT pk, COUNT(*) FROM Orders GROUP BY pk'],
    ['an aggregate', 'SELECT SUM(total) FROM Orders'],
    ['DISTINCT', 'SELECT DISTINCT pk FROM Orders'],
    ['a join', 'SELECT o.total FROM Orders o JOIN Orders p ON o.pk = p.pk'],
    ['a set operation', 'SELECT total FROM Orders UNION ALL SELECT total FROM Orders'],
    ['a derived table', 'SELECT total FROM (SELECT total FROM Orders) x'],
  ])('do not link through %s', (_, sql) => {
    expect(links(sql).source).toBeUndefined();
  });
});
