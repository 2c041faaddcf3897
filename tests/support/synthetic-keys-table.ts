import { rawDynamo } from './raw-dynamo';
import { rawPutAll } from './copy-oracle';

/**
 * A single-table design with synthetic concatenated GSI keys, the advisor's case: GSI1PK =
 * `TENANT#<tenant>#REGION#<reg.ion>`, GSI1SK = `DAY#<#day>#SEQ#<seq>`, built from attributes the
 * items also hold (hostile names among them). 30 items hold every part; 6 lack `reg.ion`; 4 have
 * a GSI1PK of another shape; 5 hold the attributes but no GSI1 keys. Wire JSON parsed from text,
 * so `__proto__` is an own attribute name as DynamoDB sends it.
 */
export async function createSyntheticKeysTable(endpoint: string, table: string): Promise<void> {
  await rawDynamo(endpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' },
      { AttributeName: 'GSI1SK', AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      {
        IndexName: 'GSI1',
        KeySchema: [
          { AttributeName: 'GSI1PK', KeyType: 'HASH' },
          { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  });
  const item = (n: number, kind: 'full' | 'noRegion' | 'legacy' | 'unindexed') => {
    const tenant = `t${n % 3}`;
    const region = n % 2 === 0 ? 'eu' : 'us';
    const day = `2026-0${(n % 4) + 1}-01`;
    const parts: string[] = [`"PK":{"S":"EVENT#${kind}#${n}"}`, `"__proto__":{"S":"p${n}"}`];
    if (kind !== 'legacy')
      parts.push(`"tenant":{"S":"${tenant}"}`, `"#day":{"S":"${day}"}`, `"seq":{"N":"${n}"}`);
    if (kind === 'full' || kind === 'unindexed') parts.push(`"reg.ion":{"S":"${region}"}`);
    if (kind === 'full' || kind === 'noRegion')
      parts.push(
        `"GSI1PK":{"S":"TENANT#${tenant}#REGION#${region}"}`,
        `"GSI1SK":{"S":"DAY#${day}#SEQ#${n}"}`,
      );
    if (kind === 'legacy') parts.push(`"GSI1PK":{"S":"LEGACY#${n}"}`, `"GSI1SK":{"S":"x"}`);
    return JSON.parse(`{${parts.join(',')}}`) as Record<string, unknown>;
  };
  const items = [
    ...Array.from({ length: 30 }, (_, n) => item(n, 'full')),
    ...Array.from({ length: 6 }, (_, n) => item(100 + n, 'noRegion')),
    ...Array.from({ length: 4 }, (_, n) => item(200 + n, 'legacy')),
    ...Array.from({ length: 5 }, (_, n) => item(300 + n, 'unindexed')),
  ];
  await rawPutAll(endpoint, table, items);
}
