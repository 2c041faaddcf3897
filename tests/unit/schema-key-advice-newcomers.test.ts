import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { keyAdviceOf } from '../../src/main/schema/key-advice';
import { emptySyntheticKeys, SyntheticKeys } from '../../src/main/schema/synthetic-keys';
import type { AttributeSchema } from '../../src/shared/ipc/schema';
import { quoteName } from '../../src/shared/schema/schema-paths';

const indexes = [
  {
    name: 'GSI1',
    kind: 'GSI',
    keys: {
      partitionKey: { name: 'GSI1PK', type: 'S' as const },
      sortKey: { name: 'GSI1SK', type: 'S' as const },
    },
  },
];
type Item = Record<string, AttributeValue>;

const inIndex = (n: number): Item => ({
  PK: { S: `E#${n}` },
  tenant: { S: `t${n % 3}` },
  region: { S: n % 2 ? 'eu' : 'us' },
  seq: { N: String(n) },
  GSI1PK: { S: `TENANT#t${n % 3}#REGION#${n % 2 ? 'eu' : 'us'}` },
  GSI1SK: { S: `SEQ#${n}` },
});

/** The advice for items read in one walk, or in two merged halves. */
function advise(items: Item[], halves = false) {
  const presence = new Map<string, number>();
  for (const item of items)
    for (const name of Object.keys(item)) presence.set(name, (presence.get(name) ?? 0) + 1);
  const attributes = [...presence].map(([name, n]) => ({
    path: quoteName(name),
    items: n,
  })) as AttributeSchema[];
  const keys = new SyntheticKeys(emptySyntheticKeys(indexes));
  if (halves) {
    const [a, b] = [
      new SyntheticKeys(emptySyntheticKeys(indexes)),
      new SyntheticKeys(emptySyntheticKeys(indexes)),
    ];
    items.forEach((item, i) => (i % 2 ? a : b).add(item, 100));
    keys.merge(a.toJSON());
    keys.merge(b.toJSON());
  } else for (const item of items) keys.add(item, 100);
  const [advice] = keyAdviceOf(keys.toJSON(), indexes, attributes);
  if (!advice) throw new Error('no advice');
  return advice;
}

describe("the advisor's count of items that would newly enter the proposed index", () => {
  const outside = [
    // Every part, with its type: would enter.
    ...[1, 2, 3].map((n) => ({
      PK: { S: `O#${n}` },
      tenant: { S: 't' },
      region: { S: 'eu' },
      seq: { N: '1' },
    })),
    // seq as a string: a number key would not take it.
    ...[4, 5].map((n) => ({ PK: { S: `O#${n}` }, tenant: { S: 't' }, region: { S: 'eu' }, seq: { S: 'x' } })),
    // No region.
    { PK: { S: 'O#6' }, tenant: { S: 't' }, seq: { N: '1' } },
  ];
  const items = [...Array.from({ length: 20 }, (_, n) => inIndex(n)), ...outside];

  it('is exact from the read: every attribute of the new key, each with its key type', () => {
    const advice = advise(items);
    expect(advice.partitionKeys.map((a) => a.name)).toEqual(['tenant', 'region']);
    expect(advice.newcomers).toBe(3);
    expect(advice.newcomersAtMost).toBe(3);
    // Parts read apart and merged count the same.
    expect(advise(items, true).newcomers).toBe(3);
  });

  it('says only "at most" when the items outside the index have more shapes than it keeps', () => {
    const shapes = Array.from({ length: 300 }, (_, n) => ({
      PK: { S: `S#${n}` },
      tenant: { S: 't' },
      region: { S: 'eu' },
      [`extra${n}`]: { S: 'x' },
    }));
    const advice = advise([...items, ...shapes]);
    expect(advice.newcomers).toBeUndefined();
    // The bound from attribute presence: seq, the rarest part, is held by 20 + 6 items, 20 of them
    // ready; the exact count (3, none of the 300 holds seq) is no longer known.
    expect(advice.newcomersAtMost).toBe(6);
  });
});
