import { describe, expect, it } from 'vitest';
import { compileMapping, keyMismatch, mappingProblem } from '../../../src/shared/dynamo/copy-mapping';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};

describe('copy mapping', () => {
  it('rewrites prefixes in key attributes only, then drops and renames, keeping hostile names', () => {
    const mapper = compileMapping(
      {
        prefixes: [{ from: 'TENANT#a', to: 'TENANT#b' }],
        drop: ['secret'],
        rename: [{ from: 'toString', to: 'renamed' }],
      },
      ['PK', 'SK', 'GSI1PK'],
    );
    const item = JSON.parse(
      '{"PK":{"S":"TENANT#a#USER#1"},"SK":{"S":"TENANT#a"},"GSI1PK":{"S":"TENANT#ab"},"note":{"S":"TENANT#a stays"},"secret":{"S":"x"},"toString":{"N":"1"},"__proto__":{"S":"kept"}}',
    ) as Record<string, { S?: string; N?: string }>;
    const out = mapper.map(item);
    expect(JSON.stringify(out)).toBe(
      '{"PK":{"S":"TENANT#b#USER#1"},"SK":{"S":"TENANT#b"},"GSI1PK":{"S":"TENANT#bb"},"note":{"S":"TENANT#a stays"},"renamed":{"N":"1"},"__proto__":{"S":"kept"}}',
    );
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(item.PK).toEqual({ S: 'TENANT#a#USER#1' });
  });

  it('leaves items untouched without rules', () => {
    const mapper = compileMapping({ prefixes: [], drop: [], rename: [] }, ['PK']);
    const item = { PK: { S: 'a' } };
    expect(mapper.isIdentity).toBe(true);
    expect(mapper.map(item)).toBe(item);
  });

  it('refuses a mapping that drops a key or merges two attributes', () => {
    expect(mappingProblem({ prefixes: [], drop: ['SK'], rename: [] }, keys)).toMatch(/drops "SK"/);
    expect(
      mappingProblem(
        {
          prefixes: [],
          drop: [],
          rename: [
            { from: 'a', to: 'c' },
            { from: 'b', to: 'c' },
          ],
        },
        keys,
      ),
    ).toMatch(/both "a" and "b" to "c"/);
  });

  it('names the key that does not match, after renames', () => {
    const renamed = compileMapping({ prefixes: [], drop: [], rename: [{ from: 'SK', to: 'sort' }] }, []);
    expect(
      keyMismatch(
        keys,
        { partitionKey: keys.partitionKey, sortKey: { name: 'sort', type: 'S' } },
        renamed,
        'T',
      ),
    ).toBeUndefined();
    expect(keyMismatch(keys, { partitionKey: keys.partitionKey }, renamed, 'T')).toBe(
      'The table T cannot take these items: its sort key is none, the copied items\' sort key is "sort" (S).',
    );
    expect(
      keyMismatch(
        keys,
        { partitionKey: { name: 'PK', type: 'N' }, sortKey: keys.sortKey },
        compileMapping({ prefixes: [], drop: [], rename: [] }, []),
        'T',
      ),
    ).toMatch(/partition key is "PK" \(N\), the copied items' partition key is "PK" \(S\)/);
  });
});
