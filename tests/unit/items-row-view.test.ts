import { describe, expect, it } from 'vitest';
import { ResultSetCore } from '../../src/main/resultsets/result-set-core';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { entityOf } from '../../src/shared/dynamo/entity';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};

function rows(): Item[] {
  return [
    { PK: { S: 'USER#1' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' } },
    {
      PK: { S: 'USER#1' },
      SK: { S: 'ORDER#2' },
      total: { N: '12345678901234567890123456789012345679' },
      status: { S: 'shipped' },
    },
    {
      PK: { S: 'USER#2' },
      SK: { S: 'ORDER#1' },
      total: { N: '12345678901234567890123456789012345678' },
      status: { S: 'open' },
    },
    { PK: { S: 'USER#2' }, SK: { S: 'ORDER#3' }, total: { N: '-5' }, status: { S: 'Shipped late' } },
    { PK: { S: 'USER#3' }, SK: { S: 'ADDRESS#home' } },
  ];
}

function setUp(): { core: ResultSetCore; id: string } {
  const core = new ResultSetCore();
  const id = core.create({ connectionId: 'c', table: 't', keyAttributes: ['PK', 'SK'] });
  core.append(id, rows());
  return { core, id };
}

describe('result-set views (sort and filter in the worker)', () => {
  it('sorts 38-digit numbers exactly, missing values last, and reads windows in that order', () => {
    const { core, id } = setUp();
    const { viewId, total } = core.view(id, { sort: [{ column: 'total', descending: false }] });
    expect(total).toBe(5);
    const window = core.window(id, 0, 10, viewId);
    expect(window.rows.map((r) => r.total)).toEqual([
      { N: '-5' },
      { N: '12345678901234567890123456789012345678' },
      { N: '12345678901234567890123456789012345679' },
      undefined,
      undefined,
    ]);
    expect(core.window(id, 1, 1, viewId).rows[0]?.SK).toEqual({ S: 'ORDER#1' });
  });

  it('filters by text in any attribute or one column, and by entity type from key prefixes', () => {
    const { core, id } = setUp();
    const text = core.view(id, { text: 'SHIPPED' });
    expect(core.window(id, 0, 10, text.viewId).rows.map((r) => r.SK)).toEqual([
      { S: 'ORDER#2' },
      { S: 'ORDER#3' },
    ]);
    const orders = core.view(id, {
      entities: ['ORDER'],
      keys,
      sort: [
        { column: 'PK', descending: true },
        { column: 'SK', descending: false },
      ],
    });
    expect(
      core
        .window(id, 0, 10, orders.viewId)
        .rows.map((r) => `${(r.PK as { S: string }).S} ${(r.SK as { S: string }).S}`),
    ).toEqual(['USER#2 ORDER#1', 'USER#2 ORDER#3', 'USER#1 ORDER#2']);
    expect(() => core.window(id, 0, 1, text.viewId)).toThrow(/view is gone/);
  });

  it('names entities by the sort key prefix, then the partition key', () => {
    expect(rows().map((r) => entityOf(r, keys))).toEqual(['PROFILE', 'ORDER', 'ORDER', 'ORDER', 'ADDRESS']);
    expect(entityOf({ pk: { S: 'TENANT#9' } }, { partitionKey: { name: 'pk', type: 'S' } })).toBe('TENANT');
    expect(entityOf({ pk: { S: 'plain-id' } }, { partitionKey: { name: 'pk', type: 'S' } })).toBeUndefined();
  });
});
