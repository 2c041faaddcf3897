import { describe, expect, it } from 'vitest';
import { keyLabel, taggedKey } from '../../src/renderer/features/migration/keys';
import { fromPlainKey, keyOf, toPlainKey } from '../../src/main/migration/samples';

describe('sample keys between the report and the editor', () => {
  const keys = {
    partitionKey: { name: 'id', type: 'B' as const },
    sortKey: { name: 'n', type: 'N' as const },
  };

  it('round-trips plain JSON keys to tagged keys by the key schema, with no digit lost', () => {
    const tagged = { id: { B: 'B/g=' }, n: { N: '9007199254740999' } };
    const plain = toPlainKey(tagged);
    expect(plain).toEqual({ id: 'B/g=', n: '9007199254740999' });
    expect(taggedKey(plain, keys)).toEqual(tagged);
    expect(fromPlainKey(plain, { id: 'B', n: 'N' })).toEqual(tagged);
    expect(toPlainKey({ id: { B: 'AA==' }, n: { N: '42' } })).toEqual({ id: 'AA==', n: 42 });
    expect(keyLabel({ pk: 'order#004', sk: 4 })).toBe('order#004 · 4');
  });

  it('takes key values from SDK items, turning bytes into base64', () => {
    const sdkItem = { id: { B: Uint8Array.from([7, 248]) }, n: { N: '1' }, other: { S: 'x' } };
    expect(keyOf(sdkItem as never, ['id', 'n'])).toEqual({ id: { B: 'B/g=' }, n: { N: '1' } });
  });
});
