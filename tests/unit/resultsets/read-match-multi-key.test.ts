import { describe, expect, it } from 'vitest';
import { projectForRead, readMatches, type ReadScope } from '../../../src/main/resultsets/read-match';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { HOSTILE_INDEX, HOSTILE_INDEX_INFO, hostileItem } from '../../support/hostile-multi-key';

// A write DynoTable made, applied to a result set read from a 2 + 2 multi-attribute index
// (`__proto__` + `a.b` / `#x` + `[0]`): whether the item belongs there is decided by every
// attribute of the index key, not only the first of each kind.
const item = (n: number): Item => hostileItem(n) as Item;
const without = (from: Item, name: string): Item => {
  const out = { ...from };
  Reflect.deleteProperty(out, name);
  return out;
};
const scope = (spec: Record<string, unknown>, projection?: ReadScope['indexProjection']): ReadScope => ({
  tableKeys: ['id'],
  spec: { index: HOSTILE_INDEX, ...spec } as ReadScope['spec'],
  indexKeys: HOSTILE_INDEX_INFO.keys,
  ...(projection ? { indexProjection: projection } : {}),
});

describe('a written item and a read of a multi-attribute index', () => {
  it('is outside a scan of the index when it lacks any key attribute, the second ones too', () => {
    const scan = scope({ mode: 'scan' });
    expect(readMatches(scan, item(0))).toBe(true);
    for (const name of ['__proto__', 'a.b', '#x', '[0]'])
      expect(readMatches(scan, without(item(0), name))).toBe(false);
  });

  it('matches a query on every partition attribute and the sort conditions left to right', () => {
    // item 0: __proto__ t0, a.b eu, #x d0, [0] 0; item 4: t0, eu, d1, 4.
    const query = scope({
      mode: 'query',
      partitionKey: { S: 't0' },
      morePartitionKeys: [{ S: 'eu' }],
      sortKey: { op: '=', value: { S: 'd0' } },
      moreSortKeys: [{ op: '<', value: { N: '10' } }],
    });
    expect(readMatches(query, item(0))).toBe(true);
    expect(readMatches(query, { ...item(0), 'a.b': { S: 'us' } })).toBe(false); // second partition attribute
    expect(readMatches(query, item(4))).toBe(false); // #x d1
    expect(readMatches(query, { ...item(0), '[0]': { N: '12' } })).toBe(false); // second sort condition
  });

  it("keeps every key attribute of a KEYS_ONLY index's projection, and never the prototype", () => {
    const projected = projectForRead(scope({ mode: 'scan' }, { isKeysOnly: true, attributes: [] }), item(1));
    expect(Object.keys(projected ?? {}).sort()).toEqual(['#x', '[0]', '__proto__', 'a.b', 'id']);
    const bare = projectForRead(scope({ mode: 'scan' }, { isKeysOnly: true, attributes: [] }), {
      id: { S: 'x' },
    });
    expect(Object.keys(bare ?? {})).toEqual(['id']);
  });
});
