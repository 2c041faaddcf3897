import { describe, expect, it } from 'vitest';
import { attributePaths as agentPaths } from '../../src/main/agent/reads';
import { attributePaths as sqlPaths } from '../../src/main/sql/catalog/entity-detect';
import type { Item } from '../../src/shared/dynamo/attribute-value';

/** JSON.parse keeps `__proto__` as an own property, as the wire path does. */
const items = JSON.parse(
  JSON.stringify([
    {
      id: { S: '1' },
      'a.b': { N: '1' },
      tags: { L: [{ S: 'x' }] },
      deep: { M: { b: { M: { c: { M: { d: { S: 'd' } } } } } } },
    },
    { id: { N: '2' }, tags: { L: [] } },
  ]).replace('"a.b"', '"__proto__":{"M":{"constructor":{"S":"c"}}},"a.b"'),
) as Item[];

describe('attribute paths of a sample (one walk, two formats)', () => {
  it("gives SQL's autocomplete quoted paths, most seen first, maps three names deep, lists as [0]", () => {
    expect(sqlPaths(items)).toEqual([
      'id',
      'tags',
      '__proto__',
      '__proto__.constructor',
      '"a.b"',
      'tags[0]',
      'deep',
      'deep.b',
      'deep.b.c',
    ]);
    expect(sqlPaths(items, 2)).toEqual(['id', 'tags']);
  });

  it('gives the agent each path with the types it held, hostile names as own keys', () => {
    const paths = agentPaths(items);
    expect(Object.keys(paths)).toEqual([
      'id',
      '__proto__',
      '__proto__.constructor',
      'a.b',
      'tags',
      'deep',
      'deep.b',
      'deep.b.c',
    ]);
    expect(paths.id).toEqual(['S', 'N']);
    expect(Object.getOwnPropertyDescriptor(paths, '__proto__')?.value).toEqual(['M']);
    expect(paths['deep.b.c']).toEqual(['M']);
  });
});
