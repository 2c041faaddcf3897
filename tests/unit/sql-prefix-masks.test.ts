import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import { COLD_BLOCK_ROWS, ColdStrings } from '../../src/main/sql/executor/cold-strings';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { bindStatement } from '../../src/main/sql/binder/bind-query';
import { executeQuery } from '../../src/main/sql/executor/execute';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { parseStatement } from '../../src/main/sql/parser/parser';

// `begins_with(col, 'prefix')` (every entity view's condition) is answered from a string
// column's stored form: codes tested once per distinct string, compressed text tested in place.
// The oracle is String.prototype.startsWith on each item's own value.

function load(items: readonly Item[], pageSize: number): ColumnarTable {
  const table = new ColumnarTable('T', ['pk']);
  for (let start = 0; start < items.length; start += pageSize)
    table.appendTaggedItems(items.slice(start, start + pageSize));
  return table;
}

function expected(items: readonly Item[], prefix: string): number[] {
  return items.map((item) => {
    const v = item.v;
    return v && 'S' in v && v.S.startsWith(prefix) ? 1 : 0;
  });
}

describe('prefix masks from stored string columns', () => {
  it('match startsWith on every row, for coded and compressed columns, over blocks and a part block', () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('ORDER#', 'USER#', 'é', '😀', '', 'OR').map((S): AttributeValue => ({ S })),
      fc.string({ unit: 'grapheme', maxLength: 40 }).map((S): AttributeValue => ({ S })),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('ORDER#', 'O', 'é', '😀', '', 'OR', 'ORDER#x'),
        fc.integer({ min: 1, max: 30 }),
        (values, repeat, prefix, pageSize) => {
          // Repeated whole, the column is coded; made unique, it is compressed.
          const items = Array.from({ length: values.length * repeat }, (_, i): Item => {
            const v = values[i % values.length];
            return { pk: { S: `p${i}` }, ...(v === undefined ? {} : { v }) };
          });
          const unique = items.map((item, i): Item =>
            'v' in item ? { ...item, v: { S: `${(item.v as { S: string }).S}${i}` } } : item,
          );
          for (const all of [items, unique]) {
            const table = load(all, pageSize);
            const mask = table.prefixMask('v', prefix);
            if (!all.some((item) => item.v)) continue;
            expect(mask && Array.from(mask)).toEqual(expected(all, prefix));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answer an entity view over unique sort keys without decoding them', () => {
    const rows = COLD_BLOCK_ROWS * 2 + 777;
    const items = Array.from({ length: rows }, (_, i): Item => ({
      PK: { S: `USER#${i % 97}` },
      SK: { S: i % 10 === 0 ? `USER#é${i}` : `ORDER#${String(i).padStart(9, '0')}` },
      amount: { N: String(i % 100) },
    }));
    const views: EntityView[] = [
      {
        name: 'orders',
        table: 'App',
        conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
        source: 'detected',
      },
    ];
    const decode = vi.spyOn(ColdStrings.prototype, 'decode');
    const { rows: answer } = runLocal(
      'SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders',
      [{ info: tableInfo('App', 'PK', 'SK'), items }],
      views,
    );
    const orders = items.filter((item) => (item.SK as { S: string }).S.startsWith('ORDER#'));
    const total = orders.reduce((sum, item) => sum + Number((item.amount as { N: string }).N), 0);
    expect(answer.map((row) => row.map(Number))).toEqual([[orders.length, total]]);
    expect(decode).not.toHaveBeenCalled();
    decode.mockRestore();
  });

  it("keep an entity view's rows for every statement over it, and count the rows of a later page", () => {
    const view: EntityView = {
      name: 'orders',
      table: 'App',
      conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
      source: 'detected',
    };
    const info = tableInfo('App', 'PK', 'SK');
    const table = new ColumnarTable('App', ['PK', 'SK']);
    const run = (text: string): number[][] => {
      const catalog = { tables: [info], views: [view] };
      const bound = bindStatement(parseStatement(text), {
        text,
        resolveTable: (name, schema, span) => resolveTable(catalog, name, schema, span, text),
      });
      const result = executeQuery(bound, {
        text,
        fn: { nowMs: 0 },
        tableFor: () => table,
        warn: () => undefined,
      });
      return Array.from({ length: result.length }, (_, i) => result.row(i).map(Number));
    };
    const item = (i: number): Item => ({
      PK: { S: `USER#${i % 7}` },
      SK: { S: i % 10 === 0 ? `USER#${i}` : `ORDER#${String(i).padStart(6, '0')}` },
      userId: { S: `u${i % 7}` },
      amount: { N: String((i * 37) % 101) },
    });
    // The oracle: each order against its own user's average, over the items themselves.
    const answers = (items: Item[]): number[][] => {
      const orders = items.filter((it) => (it.SK as { S: string }).S.startsWith('ORDER#'));
      const byUser = new Map<string, number[]>();
      for (const it of orders) {
        const user = (it.userId as { S: string }).S;
        byUser.set(user, [...(byUser.get(user) ?? []), Number((it.amount as { N: string }).N)]);
      }
      const above = orders.filter((it) => {
        const amounts = byUser.get((it.userId as { S: string }).S)!;
        return Number((it.amount as { N: string }).N) * amounts.length > amounts.reduce((a, b) => a + b, 0);
      });
      return [[orders.length], [above.length]];
    };
    const count = 'SELECT COUNT(*) AS n FROM orders';
    const correlated =
      'SELECT COUNT(*) AS n FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId)';
    const items = Array.from({ length: 900 }, (_, i) => item(i));
    table.appendTaggedItems(items);
    expect([...run(count), ...run(correlated)]).toEqual(answers(items));
    // Kept: the same rows for the next statement.
    expect(table.prefixRows('SK', 'ORDER#')).toBe(table.prefixRows('SK', 'ORDER#'));
    const more = Array.from({ length: 450 }, (_, i) => item(900 + i));
    table.appendTaggedItems(more);
    expect([...run(count), ...run(correlated)]).toEqual(answers([...items, ...more]));
  });

  it('leave a column that is not all strings to the decoded values', () => {
    const items: Item[] = [
      { pk: { S: 'a' }, v: { S: 'ORDER#1' } },
      { pk: { S: 'b' }, v: { N: '5' } },
      { pk: { S: 'c' }, v: { S: 'ORDER#2' } },
    ];
    const table = load(items, 2);
    expect(table.prefixMask('v', 'ORDER#')).toBeUndefined();
    const { rows } = runLocal("SELECT pk FROM T WHERE begins_with(v, 'ORDER#') ORDER BY pk", [
      { info: tableInfo('T', 'pk'), items },
    ]);
    expect(rows).toEqual([['a'], ['c']]);
  });
});
