import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { itemSize, MAX_ITEM_BYTES } from '../../src/shared/dynamo/item-size';
import { canonicalNumber, compareNumbers, numberProblem } from '../../src/shared/dynamo/number';
import { validateItem } from '../../src/shared/dynamo/validate-item';
import { itemsEqual } from '../../src/shared/dynamo/value-equality';
import { everyTypeItem } from '../fixtures/items-every-type';

const keys = {
  partitionKey: { name: 'pk', type: 'S' as const },
  sortKey: { name: 'sk', type: 'N' as const },
};

describe('DynamoDB numbers, checked on their text', () => {
  it.each([
    '0',
    '-0.0',
    '12345678901234567890123456789012345678',
    '1E-130',
    '-9.9999999999999999999999999999999999999E+125',
    '0.000000000000000000000000000000000000000000012345',
    '1.',
    '.5',
  ])('accepts %s', (text) => expect(numberProblem(text)).toBeUndefined());

  it.each([
    ['123456789012345678901234567890123456789', /39 significant digits/],
    ['1E+126', /too large/],
    ['1E-131', /too small/],
    ['12abc', /not a number/],
    ['', /not a number/],
    ['NaN', /not a number/],
  ])('refuses %s', (text, why) => expect(numberProblem(text)).toMatch(why));

  it('ignores leading and trailing zeros when counting digits', () => {
    expect(numberProblem('000123456789012345678901234567890123456780000')).toBeUndefined();
  });

  it('compares values, not spellings, without a JS number', () => {
    expect(canonicalNumber('1.50')).toBe(canonicalNumber('15E-1'));
    expect(
      compareNumbers('12345678901234567890123456789012345678', '12345678901234567890123456789012345677'),
    ).toBe(1);
    expect(compareNumbers('-2', '-10')).toBe(1);
    expect(compareNumbers('0.001', '1E-3')).toBe(0);
  });
});

describe('item size by DynamoDB rules', () => {
  it('counts names, UTF-8 bytes, number digits and container overhead', () => {
    expect(itemSize({ ab: { S: 'héllo' } })).toBe(2 + 6);
    expect(itemSize({ n: { N: '123.45' } })).toBe(1 + 3 + 1);
    expect(itemSize({ b: { B: 'AAEC' } })).toBe(1 + 3);
    expect(itemSize({ m: { M: { x: { BOOL: true } } } })).toBe(1 + 3 + 1 + 1 + 1);
    expect(itemSize({ l: { L: [{ NULL: true }, { S: 'ab' }] } })).toBe(1 + 3 + 2 + 1 + 2);
  });
});

describe('validateItem', () => {
  const valid: Item = { pk: { S: 'a' }, sk: { N: '1' } };

  it('accepts the every-type item', () => {
    expect(validateItem({ ...everyTypeItem(), sk: { N: '1' } }, { keys })).toEqual([]);
  });

  it('names each problem at its place', () => {
    const issues = validateItem(
      {
        pk: { S: '' },
        sk: { S: 'x' },
        empty: { SS: [] },
        dupes: { NS: ['1', '1.0'] },
        nested: { M: { bad: { N: '1E+200' } } },
        bs: { BS: ['AA==', 'AA'] },
      },
      { keys },
    );
    expect(issues.map((i) => [i.path.join('/'), i.message])).toEqual([
      ['pk', 'The partition key "pk" cannot be empty.'],
      ['sk', 'The sort key "sk" must be of type N, not S.'],
      ['empty', 'A set cannot be empty in DynamoDB: remove the attribute or add a member.'],
      ['dupes', 'The set holds "1.0" twice; set members must be unique.'],
      ['nested/bad', 'The number is too large for DynamoDB (the largest magnitude is below 1E+126).'],
      ['bs', 'The set holds "AA" twice; set members must be unique.'],
    ]);
  });

  it('refuses index keys of the wrong type, nesting past 32 levels and items over 400 KB', () => {
    expect(
      validateItem({ ...valid, gsi: { N: '1' } }, { keys, indexKeys: [{ name: 'gsi', type: 'S' }] })[0]
        ?.message,
    ).toMatch(/keys an index/);
    let deep: Item[string] = { S: 'x' };
    for (let i = 0; i < 33; i++) deep = { L: [deep] };
    expect(validateItem({ ...valid, deep }, { keys })[0]?.message).toMatch(/32 levels/);
    const big = { ...valid, blob: { S: 'x'.repeat(MAX_ITEM_BYTES) } };
    expect(validateItem(big, { keys }).at(-1)?.message).toMatch(/400 KB/);
  });
});

describe('itemsEqual', () => {
  it('sees sets in any order and numbers by value as equal, types as different', () => {
    expect(
      itemsEqual({ a: { SS: ['x', 'y'] }, n: { N: '1.50' } }, { n: { N: '1.5' }, a: { SS: ['y', 'x'] } }),
    ).toBe(true);
    expect(itemsEqual({ a: { SS: ['1'] } }, { a: { NS: ['1'] } })).toBe(false);
    expect(itemsEqual({ a: { L: [{ S: 'x' }] } }, { a: { SS: ['x'] } })).toBe(false);
    expect(itemsEqual({ a: { NULL: true } }, {})).toBe(false);
  });
});
