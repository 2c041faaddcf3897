import { describe, expect, it } from 'vitest';
import { inKeyOrder } from '../../src/shared/dynamo/item-order';
import { viewKeyNames } from '../../src/shared/dynamo/key-model';
import { dateTitle, readAsDate } from '../../src/renderer/features/items/date-view';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};

describe('the JSON views order attributes as people look for them', () => {
  it('puts the key first, then the grid columns, then the rest by name, nested maps by name', () => {
    const item = {
      zeta: { S: 'z' },
      SK: { S: 'ORDER#1' },
      total: { N: '3' },
      address: { M: { zip: { S: '1' }, city: { S: 'Kyoto' } } },
      PK: { S: 'USER#1' },
    };
    const ordered = inKeyOrder(item, viewKeyNames(keys), ['total', 'missing']);
    expect(Object.keys(ordered)).toEqual(['PK', 'SK', 'total', 'address', 'zeta']);
    expect(Object.keys((ordered.address as { M: object }).M)).toEqual(['city', 'zip']);
    expect(ordered).toEqual(item);
  });

  it('keeps "__proto__" as an ordinary attribute', () => {
    const item = JSON.parse('{"PK": {"S": "a"}, "__proto__": {"S": "x"}}') as Record<string, { S: string }>;
    expect(Object.keys(inKeyOrder(item, viewKeyNames(keys)))).toEqual(['PK', '__proto__']);
  });

  it('puts a viewed multi-attribute index key after the table key: its partition attributes, then its sort attributes', () => {
    const index = {
      partitionKey: { name: 'a.b', type: 'S' as const },
      morePartitionKeys: [{ name: '__proto__', type: 'S' as const }],
      sortKey: { name: '#x', type: 'S' as const },
      moreSortKeys: [
        { name: '[0]', type: 'N' as const },
        { name: 'SK', type: 'S' as const },
      ],
    };
    const item = JSON.parse(
      '{"zeta":{"S":"z"},"[0]":{"N":"1"},"#x":{"S":"d"},"__proto__":{"S":"t"},"SK":{"S":"s"},"a.b":{"S":"eu"},"PK":{"S":"p"},"constructor":{"S":"c"}}',
    ) as Record<string, { S: string }>;
    const ordered = inKeyOrder(item, viewKeyNames(keys, index), ['zeta']);
    expect(Object.keys(ordered)).toEqual([
      'PK',
      'SK',
      'a.b',
      '__proto__',
      '#x',
      '[0]',
      'zeta',
      'constructor',
    ]);
    expect(Object.keys(inKeyOrder(item, viewKeyNames(keys)))).toEqual([
      'PK',
      'SK',
      '#x',
      '[0]',
      '__proto__',
      'a.b',
      'constructor',
      'zeta',
    ]);
  });
});

describe('view as date', () => {
  it('reads epoch seconds, epoch milliseconds and ISO strings, and leaves other values alone', () => {
    expect(readAsDate({ N: '2051226000' })?.date.toISOString()).toBe('2035-01-01T01:00:00.000Z');
    expect(readAsDate({ N: '1706364895938' })?.date.toISOString()).toBe('2024-01-27T14:14:55.938Z');
    expect(readAsDate({ S: '2024-01-27T14:14:55Z' })?.kind).toBe('ISO 8601');
    expect(readAsDate({ N: '42' })).toBeUndefined();
    expect(readAsDate({ N: '2051226000.5' })).toBeUndefined();
    expect(readAsDate({ S: 'PAID' })).toBeUndefined();
    expect(readAsDate({ S: '2024-13-45' })).toBeUndefined();
  });

  it('says UTC, local and the stored value on hover', () => {
    const reading = readAsDate({ N: '2051226000' });
    if (!reading) throw new Error('not a date');
    const title = dateTitle(reading, '2051226000');
    expect(title).toContain('UTC: 2035-01-01T01:00:00.000Z');
    expect(title).toMatch(/Local \(.+\): 2035-01-01 \d{2}:00:00/);
    expect(title).toContain('Stored: 2051226000 (epoch seconds)');
  });
});
