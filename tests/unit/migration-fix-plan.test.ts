import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { isoToMillis, planItem, type PlanOptions } from '../../src/main/migration/fix-plan';
import { RateLimiter } from '../../src/main/dynamo/rate-limiter';

const base: PlanOptions = {
  keyAttributes: ['pk'],
  policy: 'shadow-wins',
  convertDates: false,
  protectedAttributes: new Set(['pk', 'gsiDay']),
};
const S = (s: string) => ({ S: s });

function plan(item: Item, options: Partial<PlanOptions> = {}) {
  return planItem({ pk: S('k1'), ...item }, { ...base, ...options });
}

describe('fix plan for one item', () => {
  it('moves a differing shadow into the nested path under shadow-wins, conditioned on both values', () => {
    const p = plan({ 'address.city': S('Valencia'), address: { M: { city: S('Madrid') } } });
    expect(p).toMatchObject({ moves: 1, removals: 0, review: [] });
    expect(p.update).toEqual({
      Key: { pk: S('k1') },
      UpdateExpression: 'SET #n1.#n2 = :v2 REMOVE #n0',
      ConditionExpression: '#n0 = :v0 AND #n1.#n2 = :v1',
      ExpressionAttributeNames: { '#n0': 'address.city', '#n1': 'address', '#n2': 'city' },
      ExpressionAttributeValues: { ':v0': S('Valencia'), ':v1': S('Madrid'), ':v2': S('Valencia') },
    });
  });

  it('only removes the shadow under nested-wins, and lists it under review', () => {
    const item = { 'address.city': S('Valencia'), address: { M: { city: S('Madrid') } } };
    expect(plan(item, { policy: 'nested-wins' }).update?.UpdateExpression).toBe('REMOVE #n0');
    const review = plan(item, { policy: 'review' });
    expect(review.update).toBeUndefined();
    expect(review.review).toEqual([
      { key: { pk: 'k1' }, attribute: 'address.city', reason: 'the shadow and nested values differ' },
    ]);
  });

  it('removes a shadow that repeats the nested value under every policy', () => {
    for (const policy of ['shadow-wins', 'nested-wins', 'review'] as const) {
      const p = plan({ 'a.b': { N: '1' }, a: { M: { b: { N: '1' } } } }, { policy });
      expect(p).toMatchObject({ removals: 1, moves: 0 });
      expect(p.update?.UpdateExpression).toBe('REMOVE #n0');
    }
  });

  it('creates the missing parent map with SET a = :map, conditioned on a still being absent', () => {
    const p = plan({ 'a.b.c': { N: '7' } });
    expect(p.update).toMatchObject({
      UpdateExpression: 'SET #n1 = :v1 REMOVE #n0',
      ConditionExpression: '#n0 = :v0 AND attribute_not_exists(#n1)',
      ExpressionAttributeValues: { ':v0': { N: '7' }, ':v1': { M: { b: { M: { c: { N: '7' } } } } } },
    });
  });

  it('sets a missing key inside an existing map, checking the map is still a map', () => {
    const p = plan({ 'a.b.c': { N: '7' }, a: { M: { b: { M: {} } } } });
    expect(p.update?.ConditionExpression).toBe(
      '#n0 = :v0 AND attribute_not_exists(#n1.#n2.#n3) AND attribute_type(#n1.#n2, :v1)',
    );
    const deeper = plan({ 'a.b.c': { N: '7' }, a: { M: {} } });
    expect(deeper.update?.UpdateExpression).toBe('SET #n1.#n2 = :v2 REMOVE #n0');
    expect(deeper.update?.ConditionExpression).toBe(
      '#n0 = :v0 AND attribute_not_exists(#n1.#n2) AND attribute_type(#n1, :v1)',
    );
  });

  it('merges several shadows that create the same map into one SET', () => {
    const p = plan({ 'a.b': S('x'), 'a.c': S('y') });
    expect(p.moves).toBe(2);
    expect(p.update?.UpdateExpression).toBe('SET #n2 = :v2 REMOVE #n0, #n1');
    expect(p.update?.ExpressionAttributeValues?.[':v2']).toEqual({ M: { b: S('x'), c: S('y') } });
  });

  it('sends overlapping or impossible changes to review instead of guessing', () => {
    expect(
      plan({ 'a.b': S('x'), 'a.b.c': S('y') })
        .review.map((r) => r.attribute)
        .sort(),
    ).toEqual(['a.b', 'a.b.c']);
    expect(plan({ 'status.code': { N: '200' }, status: S('ok') }).review[0]?.reason).toBe(
      'status is not a map, so the nested path cannot be created',
    );
    expect(
      plan({ 'pk.x': S('x') }, { protectedAttributes: new Set(['pk', 'pk.x']) }).review[0]?.reason,
    ).toMatch(/key attribute/);
  });

  it('follows numeric steps into lists, as dynamoose writes list.0', () => {
    const p = plan({ 'tags.0': S('new'), tags: { L: [S('old')] } });
    expect(p.update?.UpdateExpression).toBe('SET #n1[0] = :v2 REMOVE #n0');
  });

  it('converts ISO strings to epoch ms on every path except keys and index keys, when asked', () => {
    const item = {
      createdAt: S('2024-01-05T10:00:00.000Z'),
      gsiDay: S('2024-01-05'),
      events: { L: [{ M: { at: S('2024-01-05T12:00:00+02:00') } }] },
      note: S('on 2024-01-05'),
    };
    const p = plan(item, { convertDates: true });
    expect(p.conversions).toBe(2);
    expect(p.update?.UpdateExpression).toBe('SET #n0 = :v1, #n1[0].#n2 = :v3');
    expect(p.update?.ExpressionAttributeValues).toMatchObject({
      ':v1': { N: '1704448800000' },
      ':v3': { N: '1704448800000' },
    });
    const only = plan(item, { convertDates: true, datePaths: new Set(['events[0].at']) });
    expect(only.conversions).toBe(1);
    expect(plan(item).update).toBeUndefined();
  });

  it('reads offsets without a colon and date-only strings as UTC midnight', () => {
    expect(isoToMillis('2024-01-05T12:00:00+0200')).toBe(Date.UTC(2024, 0, 5, 10));
    expect(isoToMillis('2024-01-05')).toBe(Date.UTC(2024, 0, 5));
    expect(isoToMillis('2024-01-05T10:20:30.123456Z')).toBe(Date.UTC(2024, 0, 5, 10, 20, 30, 123));
  });
});

describe('rate limiter', () => {
  it('lets a second of burst through, then waits off what DynamoDB reported as consumed', () => {
    let now = 0;
    const limiter = new RateLimiter(10, () => now);
    expect(limiter.delay()).toBe(0);
    limiter.spend(30); // a page that cost 30 units: 20 in debt
    expect(limiter.delay()).toBe(2001);
    now = 2001;
    expect(limiter.delay()).toBe(0);
  });

  it('halves its rate on throttling and climbs back on success', () => {
    const limiter = new RateLimiter(100, () => 0);
    limiter.throttled();
    limiter.throttled();
    expect(limiter.currentRate).toBe(25);
    for (let i = 0; i < 30; i++) limiter.succeeded();
    expect(limiter.currentRate).toBe(100);
  });
});

describe('JSON text as the map or list it spells (documentAsString)', () => {
  const docs = (item: Item) => plan(item, { documentPaths: new Set(['profile', 'list[0]']) });

  it('rewrites text on the paths picked, every number digit for digit, conditioned on the text seen', () => {
    const text =
      '{"visits": 12345678901234567890123456789012345678, "city": "Madrid", "tags": ["a", 1.50], "gone": null, "__proto__": true}';
    const p = docs({ profile: S(text), other: S('{"a": 1}') });
    expect(p.rewrites).toBe(1);
    expect(p.update?.ConditionExpression).toBe('#n0 = :v0');
    const stored = p.update?.ExpressionAttributeValues?.[':v1'] as { M: Record<string, unknown> };
    expect(Object.keys(stored.M)).toEqual(['visits', 'city', 'tags', 'gone', '__proto__']);
    expect(stored.M.visits).toEqual({ N: '12345678901234567890123456789012345678' });
    expect(stored.M.tags).toEqual({ L: [{ S: 'a' }, { N: '1.50' }] });
    expect(Object.getOwnPropertyDescriptor(stored.M, '__proto__')?.value).toEqual({ BOOL: true });
  });

  it('leaves text DynamoDB cannot hold for review, and text that is not JSON alone', () => {
    const p = docs({ profile: S('{"n": 1e200}'), list: { L: [S('[1, 2')] } });
    expect(p.update).toBeUndefined();
    expect(p.review).toEqual([
      {
        key: { pk: 'k1' },
        attribute: 'profile',
        reason:
          'its JSON text cannot be stored as a map or list: The number is too large for DynamoDB (the largest magnitude is below 1E+126) (line 1, column 7)',
      },
    ]);
  });
});
