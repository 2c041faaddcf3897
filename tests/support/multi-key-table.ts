import { rawDynamo, rawReadAll } from './raw-dynamo';
import { rawPutAll } from './copy-oracle';

/** The index under test: two partition attributes and two sort attributes, names that need aliases. */
export const MULTI_INDEX = 'byTenantRegion';
export const MULTI_KEY_SCHEMA = [
  { AttributeName: 'tenant', KeyType: 'HASH' },
  { AttributeName: 'reg.ion', KeyType: 'HASH' },
  { AttributeName: '#day', KeyType: 'RANGE' },
  { AttributeName: 'seq', KeyType: 'RANGE' },
];

/**
 * Item `n` as wire JSON parsed from text, so `__proto__` and `constructor` are own attribute
 * names as DynamoDB sends them: tenants t0/t1, regions eu/us, days d0..d2, seq = n.
 */
export function multiKeyItem(n: number): Record<string, unknown> {
  return JSON.parse(
    `{"id":{"S":"ITEM#${n}"},"tenant":{"S":"t${n % 2}"},"reg.ion":{"S":"${n % 4 < 2 ? 'eu' : 'us'}"},"#day":{"S":"d${n % 3}"},"seq":{"N":"${n}"},"__proto__":{"S":"proto ${n}"},"constructor":{"M":{"toString":{"BOOL":true}}}}`,
  ) as Record<string, unknown>;
}

/**
 * Creates a table keyed on `id` with a 2 + 2 multi-attribute GSI over raw HTTP (past the SDK and
 * DynoTable) and puts `count` items in it.
 */
export async function createMultiKeyTable(endpoint: string, table: string, count = 48): Promise<void> {
  await rawDynamo(endpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'id', AttributeType: 'S' },
      { AttributeName: 'tenant', AttributeType: 'S' },
      { AttributeName: 'reg.ion', AttributeType: 'S' },
      { AttributeName: '#day', AttributeType: 'S' },
      { AttributeName: 'seq', AttributeType: 'N' },
    ],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      { IndexName: MULTI_INDEX, KeySchema: MULTI_KEY_SCHEMA, Projection: { ProjectionType: 'ALL' } },
    ],
  });
  await rawPutAll(
    endpoint,
    table,
    Array.from({ length: count }, (_, n) => multiKeyItem(n)),
  );
}

/** DynamoDB Local's own answer to a Query on the index, as wire JSON, every page. */
export async function rawIndexQuery(
  endpoint: string,
  table: string,
  keyCondition: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  return rawReadAll(endpoint, 'Query', {
    TableName: table,
    IndexName: MULTI_INDEX,
    KeyConditionExpression: keyCondition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}
