import { describe, expect, it } from 'vitest';
import type { EntitySchema, SchemaReport } from '../../src/shared/ipc';
import { designRelations, keyShapesOf } from '../../src/renderer/features/schema/components/design-relations';

function entity(name: string, keyPattern: string, more: Partial<EntitySchema> = {}): EntitySchema {
  return {
    name,
    keyPattern,
    keyPatterns: [{ pattern: keyPattern, count: 1 }],
    items: 1,
    maxItemBytes: 10,
    attributes: [],
    untrackedPaths: 0,
    ...more,
  };
}

const attribute = (path: string) =>
  ({
    path,
    items: 1,
    share: 1,
    values: 1,
    types: { S: 1 },
    formats: {},
    strings: 1,
    distinct: { count: 1, isExact: true },
  }) as EntitySchema['attributes'][number];

/** The playground's design: users, orders under USER#…, payments under ORDER#…, GSI1 overloaded. */
function playground(): SchemaReport {
  return {
    table: 'DynoTableSample',
    keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
    indexes: [
      {
        name: 'GSI1',
        kind: 'GSI',
        keys: { partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' } },
      },
    ],
    entities: [
      entity('users', 'PK=USER#… SK=PROFILE', {
        attributes: [attribute('userId')],
        indexPatterns: [{ index: 'GSI1', pattern: 'GSI1PK=EMAIL#… GSI1SK=USER#…', count: 1 }],
      }),
      entity('orders', 'PK=USER#… SK=ORDER#…', {
        attributes: [attribute('orderId')],
        indexPatterns: [{ index: 'GSI1', pattern: 'GSI1PK=STATUS#… GSI1SK=…', count: 1 }],
      }),
      entity('payments', 'PK=ORDER#… SK=PAYMENT#…', {
        attributes: [attribute('paymentId'), attribute('userId'), attribute('"address.id"')],
        indexPatterns: [{ index: 'GSI1', pattern: 'GSI1PK=USER#… GSI1SK=PAYMENT#…', count: 1 }],
      }),
    ],
  } as unknown as SchemaReport;
}

describe('design relations', () => {
  it('reads key shapes by the key names, also names with spaces', () => {
    expect(keyShapesOf('PK=USER#… SK=ORDER#…', 'PK', 'SK')).toEqual({ pk: 'USER#…', sk: 'ORDER#…' });
    expect(keyShapesOf('my pk=A#… my sk=B#…', 'my pk', 'my sk')).toEqual({ pk: 'A#…', sk: 'B#…' });
    expect(keyShapesOf('id=<number>', 'id', undefined)).toEqual({ pk: '<number>' });
  });

  it('finds the playground’s relations: payments under orders, GSI1 into the users’ collection, userId', () => {
    const relations = designRelations(playground());
    const summary = relations.map((r) => [
      r.from,
      'entity' in r.to ? r.to.entity : `collection ${r.to.collection}`,
      r.kind,
      r.label,
    ]);
    expect(summary).toEqual([
      ['payments', 'orders', 'key', 'PK ORDER#… = SK'],
      ['payments', 'collection PK=USER#…', 'index', 'GSI1 USER#…'],
      ['payments', 'users', 'attribute', 'userId'],
    ]);
    expect(relations[0]?.sentence).toBe(
      'payments live under their order: their PK ORDER#… is the SK of orders.',
    );
  });

  it('draws nothing for a table of one entity, nor for an attribute naming its own entity', () => {
    const report = playground();
    report.entities = [report.entities[0] as EntitySchema];
    expect(designRelations(report)).toEqual([]);
  });
});
