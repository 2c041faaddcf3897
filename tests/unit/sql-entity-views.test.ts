import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { detectEntityViews, pluralName } from '../../src/main/sql/catalog/entity-detect';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import type { EntityView } from '../../src/shared/sql/catalog';
import { allItems, get, shop, views } from '../fixtures/sql-fixture';

describe('entity views', () => {
  it('are detected from key prefixes of the playground design, named by its entity attribute', () => {
    const items = sampleItems();
    const detected = detectEntityViews(tableInfo('DynoTableSample', 'PK', 'SK'), items.map(toSdkItem));
    const byName = Object.fromEntries(detected.map((v) => [v.name, v.conditions]));
    expect(Object.keys(byName).sort()).toEqual(['balances', 'orders', 'payments', 'sessions', 'users']);
    expect(byName.orders).toEqual([{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }]);
    expect(byName.users).toEqual([
      { attribute: 'PK', op: 'begins_with', values: [{ S: 'USER#' }] },
      { attribute: 'SK', op: '=', values: [{ S: 'PROFILE' }] },
    ]);
    const shares = detected.reduce((sum, v) => sum + (v.share ?? 0), 0);
    expect(shares).toBeCloseTo(1, 5);
  });

  it('select exactly the items of their entity', () => {
    const items = sampleItems();
    const info = tableInfo('DynoTableSample', 'PK', 'SK');
    const detected = detectEntityViews(info, items.map(toSdkItem));
    const { rows } = runLocal('SELECT COUNT(*) FROM users', [{ info, items }], detected);
    const profiles = items.filter((i) => i.SK && 'S' in i.SK && i.SK.S === 'PROFILE').length;
    expect(rows[0]![0]).toBe(profiles);
    const payments = runLocal('SELECT COUNT(*) FROM DynoTableSample.payments', [{ info, items }], detected)
      .rows[0]![0];
    expect(payments).toBe(items.filter((i) => i.SK && 'S' in i.SK && i.SK.S.startsWith('PAYMENT#')).length);
  });

  it('a single-entity table has no views, and names are plural and SQL-friendly', () => {
    const one = detectEntityViews(tableInfo('T', 'PK', 'SK'), [
      toSdkItem({ PK: { S: 'USER#1' }, SK: { S: 'USER#1' } }),
    ]);
    expect(one).toEqual([]);
    expect(['USER', 'ORDER_ITEM', 'Category', 'ADDRESS', 'lineItem', '9th'].map(pluralName)).toEqual([
      'users',
      'order_items',
      'categories',
      'addresses',
      'line_items',
      'e_9ths',
    ]);
  });

  it('user-defined views (a key condition on an index) and qualified names resolve', () => {
    const paid: EntityView = {
      name: 'paid_orders',
      table: 'Shop',
      index: 'GSI1',
      conditions: [{ attribute: 'GSI1PK', op: '=', values: [{ S: 'STATUS#PAID' }] }],
      source: 'user',
    };
    const { rows } = runLocal('SELECT orderId FROM paid_orders ORDER BY orderId', [shop], [...views, paid]);
    const expected = allItems
      .filter((i) => get(i, 'GSI1PK') === 'STATUS#PAID')
      .map((i) => get(i, 'orderId') as string)
      .sort();
    expect(rows.map((r) => r[0])).toEqual(expected);
    const other = { info: tableInfo('Other', 'PK', 'SK'), items: [] };
    const twice: EntityView[] = [...views, { ...views[0]!, table: 'Other' }];
    expect(() => runLocal('SELECT * FROM users', [shop, other], twice)).toThrow(
      /Several tables have an entity view called "users"; write Table.users/,
    );
    expect(runLocal('SELECT COUNT(*) FROM Shop.users', [shop, other], twice).rows[0]![0]).toBe(12);
  });
});
