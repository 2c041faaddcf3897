import { describe, expect, it } from 'vitest';
import { HealthAccumulator, ttlClassOf } from '../../src/main/health/accumulator';
import { itemSize } from '../../src/shared/dynamo/item-size';
import type { Item } from '../../src/shared/dynamo/attribute-value';

describe('ttlClassOf: how DynamoDB TTL reads a value', () => {
  it('expires only numbers of epoch seconds', () => {
    expect(ttlClassOf({ N: '1767225600' })).toBe('seconds');
    expect(ttlClassOf({ N: '1767225600000' })).toBe('milliseconds');
    expect(ttlClassOf({ N: '1767225600.5' })).toBe('seconds');
    expect(ttlClassOf({ S: '1767225600' })).toBe('string');
    expect(ttlClassOf({ BOOL: true })).toBe('otherType');
    expect(ttlClassOf(undefined)).toBe('missing');
  });
});

describe('HealthAccumulator', () => {
  it('reads p50 and p95 within 2% of the exact percentiles, and the max exactly', () => {
    const acc = new HealthAccumulator('pk', undefined, undefined);
    const sizes: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const item: Item = { pk: { S: `K#${i % 37}` }, body: { S: 'x'.repeat((i * 7919) % 9000) } };
      sizes.push(itemSize(item));
      acc.add(item);
    }
    sizes.sort((a, b) => a - b);
    const exact = (q: number) => sizes[Math.ceil(q * sizes.length) - 1]!;
    const bands = acc.bandsOf('pk:K')!;
    for (const q of [0.5, 0.95]) {
      expect(bands.percentile(q)).toBeGreaterThanOrEqual(exact(q));
      expect(bands.percentile(q)).toBeLessThanOrEqual(exact(q) * 1.02 + 1);
    }
    expect(bands.max).toBe(sizes.at(-1));
    expect(acc.keys.size).toBe(37);
    expect(acc.histogram().reduce((s, b) => s + b.items, 0)).toBe(2000);
  });

  it('keeps `__proto__` and `constructor` as ordinary key values and attribute names', () => {
    const acc = new HealthAccumulator('pk', 'sk', '__proto__');
    const item = JSON.parse(
      '{"pk":{"S":"__proto__"},"sk":{"S":"constructor"},"__proto__":{"N":"1767225600000"}}',
    ) as Item;
    acc.add(item);
    acc.add(item);
    expect(acc.keys.get('__proto__')).toMatchObject({ items: 2 });
    expect(acc.ttl.get('milliseconds')).toBe(2);
    expect(Object.keys(acc.ttlSamples.get('milliseconds')![0]!)).toEqual(['pk', 'sk']);
  });
});
