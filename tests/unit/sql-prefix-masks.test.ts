import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import { COLD_BLOCK_ROWS, ColdStrings } from '../../src/main/sql/executor/cold-strings';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';

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
