import { describe, expect, it } from 'vitest';
import { matchesFilter, sortTables } from '../../src/renderer/features/tables/sort';
import { tableSummary } from '../support/table-summary';

const table = tableSummary;

const tables = [
  table('orders-2', { itemCount: 50, sizeBytes: 9_000 }),
  table('Users', {
    itemCount: 900,
    sizeBytes: 100,
    indexes: [
      {
        name: 'ByEmail',
        kind: 'GSI',
        keys: { partitionKey: { name: 'email', type: 'S' } },
        projection: 'ALL',
      },
    ],
  }),
  table('orders-10', { itemCount: 50, sizeBytes: 1, billingMode: 'PROVISIONED' }),
];

describe('table list filter', () => {
  it('matches names, key attributes and index names, ignoring case', () => {
    expect(tables.filter((t) => matchesFilter(t, 'ORDERS')).map((t) => t.name)).toEqual([
      'orders-2',
      'orders-10',
    ]);
    expect(tables.filter((t) => matchesFilter(t, 'byemail')).map((t) => t.name)).toEqual(['Users']);
    expect(tables.filter((t) => matchesFilter(t, '  ')).length).toBe(3);
    expect(tables.filter((t) => matchesFilter(t, 'nothing')).length).toBe(0);
  });
});

describe('table list sort', () => {
  it('sorts names naturally (orders-2 before orders-10)', () => {
    expect(sortTables(tables, { column: 'name', direction: 'asc' }).map((t) => t.name)).toEqual([
      'orders-2',
      'orders-10',
      'Users',
    ]);
  });

  it('sorts by item count descending and breaks ties by name', () => {
    expect(sortTables(tables, { column: 'items', direction: 'desc' }).map((t) => t.name)).toEqual([
      'Users',
      'orders-2',
      'orders-10',
    ]);
  });

  it('sorts by size and by index count', () => {
    expect(sortTables(tables, { column: 'size', direction: 'asc' }).map((t) => t.name)).toEqual([
      'orders-10',
      'Users',
      'orders-2',
    ]);
    expect(sortTables(tables, { column: 'indexes', direction: 'desc' })[0]?.name).toBe('Users');
  });

  it('does not reorder the array it was given', () => {
    const before = tables.map((t) => t.name);
    sortTables(tables, { column: 'size', direction: 'desc' });
    expect(tables.map((t) => t.name)).toEqual(before);
  });
});
