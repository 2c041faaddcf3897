import type { IndexInfo } from '../../src/shared/ipc/tables';
import { rawPutAll } from './copy-oracle';
import { rawDynamo } from './raw-dynamo';

/**
 * A 2 + 2 multi-attribute GSI whose key attributes have the names that break naive code:
 * `__proto__` and `a.b` partition it, `#x` and `[0]` (a number) sort it.
 */
export const HOSTILE_INDEX = 'byHostile';
export const HOSTILE_KEY_SCHEMA = [
  { AttributeName: '__proto__', KeyType: 'HASH' },
  { AttributeName: 'a.b', KeyType: 'HASH' },
  { AttributeName: '#x', KeyType: 'RANGE' },
  { AttributeName: '[0]', KeyType: 'RANGE' },
];

/** The same index as DynoTable's table metadata describes it. */
export const HOSTILE_INDEX_INFO: IndexInfo = {
  name: HOSTILE_INDEX,
  kind: 'GSI',
  projection: 'ALL',
  keys: {
    partitionKey: { name: '__proto__', type: 'S' },
    morePartitionKeys: [{ name: 'a.b', type: 'S' }],
    sortKey: { name: '#x', type: 'S' },
    moreSortKeys: [{ name: '[0]', type: 'N' }],
  },
};

/**
 * Item `n` as wire JSON parsed from text, so `__proto__` is an own attribute name as DynamoDB
 * sends it: `__proto__` t0/t1, `a.b` eu/us, `#x` d0..d2, `[0]` = n, `constructor` c<n>.
 */
export function hostileItem(n: number): Record<string, unknown> {
  return JSON.parse(
    `{"id":{"S":"I${n}"},"__proto__":{"S":"t${n % 2}"},"a.b":{"S":"${n % 4 < 2 ? 'eu' : 'us'}"},"#x":{"S":"d${n % 3}"},"[0]":{"N":"${n}"},"constructor":{"S":"c${n}"}}`,
  ) as Record<string, unknown>;
}

/** A table keyed on `id` with the hostile 2 + 2 index, made over raw HTTP, holding `count` items. */
export async function createHostileMultiKeyTable(endpoint: string, table: string, count = 24): Promise<void> {
  await rawDynamo(endpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'id', AttributeType: 'S' },
      { AttributeName: '__proto__', AttributeType: 'S' },
      { AttributeName: 'a.b', AttributeType: 'S' },
      { AttributeName: '#x', AttributeType: 'S' },
      { AttributeName: '[0]', AttributeType: 'N' },
    ],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      { IndexName: HOSTILE_INDEX, KeySchema: HOSTILE_KEY_SCHEMA, Projection: { ProjectionType: 'ALL' } },
    ],
  });
  await rawPutAll(
    endpoint,
    table,
    Array.from({ length: count }, (_, n) => hostileItem(n)),
  );
}
