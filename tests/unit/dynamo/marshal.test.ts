import { expect, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../../src/main/dynamo/marshal';
import type { Item } from '../../../src/shared/dynamo/attribute-value';

it('keeps every type through SDK values and back, binary as bytes and numbers as strings', () => {
  const item: Item = {
    n: { N: '-1.2345678901234567890123456789012345678E-130' },
    b: { B: Buffer.from([0, 255, 10]).toString('base64') },
    bs: { BS: [Buffer.from('x').toString('base64')] },
    m: { M: { l: { L: [{ NULL: true }, { BOOL: false }, { SS: ['a'] }, { NS: ['1', '2.5'] }] } } },
  };
  const sdk = toSdkItem(item);
  expect(sdk.b?.B).toBeInstanceOf(Uint8Array);
  expect(fromSdkItem(sdk)).toEqual(item);
});

it('keeps an attribute named __proto__ as an attribute', () => {
  const item = JSON.parse('{"__proto__": {"S": "kept"}, "pk": {"S": "1"}}') as Item;
  const back = fromSdkItem(toSdkItem(item));
  expect(Object.keys(back)).toEqual(['__proto__', 'pk']);
  expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toEqual({ S: 'kept' });
});
