import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE, sampleItems, sampleTableDefinition } from '../../../resources/playground/sample-table';
import { itemSchema } from '../../../src/shared/dynamo/attribute-value';

describe('the sample single-table design', () => {
  const items = sampleItems();

  it('is the same on every call and has a few hundred valid, uniquely keyed items', () => {
    expect(JSON.stringify(sampleItems())).toBe(JSON.stringify(items));
    expect(items.length).toBeGreaterThan(200);
    expect(items.length).toBeLessThan(1000);
    for (const item of items) itemSchema.parse(item);
    expect(new Set(items.map((i) => JSON.stringify([i.PK, i.SK]))).size).toBe(items.length);
  });

  it('gives every index key attribute the declared type, or leaves it out (sparse)', () => {
    const declared = new Map(
      sampleTableDefinition.AttributeDefinitions!.map((d) => [d.AttributeName!, d.AttributeType!]),
    );
    for (const item of items) {
      for (const [name, type] of declared) {
        if (name in item) expect(Object.keys(item[name]!)).toEqual([type]);
      }
    }
    expect(sampleTableDefinition.TableName).toBe(SAMPLE_TABLE);
  });

  it('puts only unprocessed payments into the sparse index', () => {
    const inIndex = items.filter((i) => 'unprocessedQueue' in i);
    expect(inIndex.length).toBeGreaterThan(0);
    expect(inIndex.every((i) => JSON.stringify(i.status) === '{"S":"UNPROCESSED"}')).toBe(true);
    expect(items.filter((i) => JSON.stringify(i.status) === '{"S":"UNPROCESSED"}')).toHaveLength(
      inIndex.length,
    );
  });
});
