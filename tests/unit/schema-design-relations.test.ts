import { describe, expect, it } from 'vitest';
import type { EntitySchema, SchemaReport } from '../../src/shared/ipc';
import { designRelations, keyShapesOf } from '../../src/renderer/features/schema/components/design-relations';
import {
  BOX_W,
  curvePoints,
  labelRect,
  linksOf,
  type Placed,
} from '../../src/renderer/features/schema/components/diagram-links';

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
    const key = (name: string) => ({ name, type: 'S' as const });
    expect(keyShapesOf('PK=USER#… SK=ORDER#…', { partitionKey: key('PK'), sortKey: key('SK') })).toEqual({
      pk: 'USER#…',
      sk: 'ORDER#…',
    });
    expect(keyShapesOf('my pk=A#… my sk=B#…', { partitionKey: key('my pk'), sortKey: key('my sk') })).toEqual(
      {
        pk: 'A#…',
        sk: 'B#…',
      },
    );
    expect(keyShapesOf('id=<number>', { partitionKey: key('id') })).toEqual({ pk: '<number>' });
    // A 2 + 2 key: the first partition and the first sort attribute, each read by the names around it.
    const multi = {
      partitionKey: key('tenant'),
      morePartitionKeys: [key('reg ion')],
      sortKey: key('#day'),
      moreSortKeys: [key('seq')],
    };
    expect(keyShapesOf('tenant=T#… reg ion=… #day=DAY#… seq=<number>', multi)).toEqual({
      pk: 'T#…',
      sk: 'DAY#…',
    });
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

describe('design diagram lines and labels', () => {
  /** Boxes in three columns, lines crossing between them and a loop within one column. */
  function crowded() {
    const boxes = new Map<string, Placed>();
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    names.forEach((name, i) =>
      boxes.set(name, {
        x: 24 + (i % 3) * (BOX_W + 150),
        y: 44 + Math.floor(i / 3) * 140,
        height: 120,
        column: i % 3,
      }),
    );
    const relation = (from: string, to: string, label: string) =>
      ({ from, to: { entity: to }, kind: 'key', label, sentence: label }) as const;
    const relations = [
      relation('a', 'e', 'PK ORDER#… = SK'),
      relation('d', 'b', 'GSI1 USER#…'),
      relation('a', 'c', 'customerId'),
      relation('f', 'a', 'tenant + region'),
      relation('b', 'e', 'GSI2 TENANT#…'),
      relation('a', 'd', 'parentId'),
    ];
    return linksOf(relations, boxes, new Map(), 3 * (BOX_W + 150) - 150 + 48 + 150);
  }

  it('puts no label over a line, its own included, nor over another label', () => {
    const links = crowded();
    const points = links.flatMap((l) => curvePoints(l.path));
    const rects = links.map((l) => labelRect(l.label, l.relation.label));
    rects.forEach((r, i) => {
      const through = points.filter((p) => p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom);
      expect(through, links[i]?.relation.label).toEqual([]);
      rects.forEach((o, j) => {
        if (j !== i)
          expect(r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom).toBe(false);
      });
    });
  });

  it('keeps each label near its own line', () => {
    for (const l of crowded()) {
      const points = curvePoints(l.path);
      const r = labelRect(l.label, l.relation.label);
      const near = points.some(
        (p) => p.x >= r.left - 12 && p.x <= r.right + 12 && Math.abs(p.y - (r.top + r.bottom) / 2) <= 52,
      );
      expect(near, l.relation.label).toBe(true);
    }
  });
});
