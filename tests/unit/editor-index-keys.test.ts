import { describe, expect, it } from 'vitest';
import { indexMoves } from '../../src/renderer/features/editor/index-keys';
import { indexKeyRoles, roleText } from '../../src/shared/dynamo/key-model';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { IndexInfo } from '../../src/shared/ipc/tables';
import { HOSTILE_INDEX_INFO } from '../support/hostile-multi-key';

const indexes: IndexInfo[] = [
  HOSTILE_INDEX_INFO,
  { name: 'byX', kind: 'GSI', projection: 'ALL', keys: { partitionKey: { name: '#x', type: 'S' } } },
];

/** Wire JSON parsed from text, so `__proto__` is an own attribute as DynamoDB sends it. */
const item = (text: string): Item => JSON.parse(text) as Item;
const stored = item(
  '{"id":{"S":"I1"},"__proto__":{"S":"t1"},"a.b":{"S":"eu"},"#x":{"S":"d1"},"[0]":{"N":"1"}}',
);

describe('the item editor and multi-attribute index keys', () => {
  it('marks every attribute of every index key, with its place in that key', () => {
    const roles = indexKeyRoles(indexes);
    expect([...roles.keys()]).toEqual(['__proto__', 'a.b', '#x', '[0]']);
    expect(roles.get('a.b')?.map(roleText)).toEqual(['byHostile partition key, 2 of 2']);
    expect(roles.get('#x')?.map(roleText)).toEqual(['byHostile sort key, 1 of 2', 'byX partition key']);
    expect(roles.has('id')).toBe(false);
  });

  it('warns that changing a later attribute of a key moves the item, and removing one takes it out', () => {
    expect(indexMoves(stored, stored, indexes)).toEqual([]);
    const changed = item(
      '{"id":{"S":"I1"},"__proto__":{"S":"t1"},"a.b":{"S":"us"},"#x":{"S":"d1"},"[0]":{"N":"1.0"}}',
    );
    // 1.0 and 1 are one number to DynamoDB: no move for [0].
    expect(indexMoves(stored, changed, indexes)).toEqual([
      'Changing "a.b" (byHostile partition key, 2 of 2) moves the item in byHostile.',
    ]);
    const removed = item('{"id":{"S":"I1"},"__proto__":{"S":"t1"},"a.b":{"S":"eu"},"#x":{"S":"d1"}}');
    expect(indexMoves(stored, removed, indexes)).toEqual([
      'Removing "[0]" (byHostile sort key, 2 of 2) takes the item out of byHostile.',
    ]);
    expect(indexMoves(null, changed, indexes)).toEqual([]);
  });
});
