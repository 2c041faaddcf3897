import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createMultiKeyTable, MULTI_INDEX } from '../support/multi-key-table';
import { rawPutAll } from '../support/copy-oracle';
import { rawScanItems } from '../support/raw-dynamo';

const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());

const stillSignal = () => new AbortController().signal;
const INDEX_KEYS = ['tenant', 'reg.ion', '#day', 'seq'];

describe('the schema of a table with a 2 + 2 multi-attribute GSI, hostile names included', () => {
  const table = uniqueTableName('schemamulti');

  beforeAll(async () => {
    await createMultiKeyTable(endpoint, table, 24);
    // Items the index does not hold: each lacks one of its four key attributes.
    const partial = INDEX_KEYS.map((missing, n) => {
      const item = JSON.parse(
        `{"id":{"S":"ITEM#x${n}"},"tenant":{"S":"t9"},"reg.ion":{"S":"eu"},"#day":{"S":"d9"},"seq":{"N":"9"},"__proto__":{"S":"p"}}`,
      ) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(item).filter(([name]) => name !== missing));
    });
    await rawPutAll(endpoint, table, partial);
  });

  it('reports the index with every partition and sort attribute, and the items holding all four', async () => {
    const { report } = await analyzeSchema({
      client,
      table,
      mode: 'full',
      scanId: 'schema-multi-1',
      segments: 2,
      signal: stillSignal(),
    });
    expect(report.indexes?.[0]).toEqual({
      name: MULTI_INDEX,
      kind: 'GSI',
      keys: {
        partitionKey: { name: 'tenant', type: 'S' },
        morePartitionKeys: [{ name: 'reg.ion', type: 'S' }],
        sortKey: { name: '#day', type: 'S' },
        moreSortKeys: [{ name: 'seq', type: 'N' }],
      },
    });
    // The oracle: DynamoDB Local's own Scan of the index, which holds exactly the items with all four.
    const inIndex = await rawScanItems(endpoint, table, MULTI_INDEX);
    const stored = await rawScanItems(endpoint, table);
    expect(stored.length).toBe(28);
    const patterns = report.entities.flatMap((e) => e.indexPatterns ?? []);
    expect(patterns.map((p) => p.pattern)).toEqual(['tenant=… reg.ion=… #day=… seq=<number>']);
    expect(patterns.reduce((n, p) => n + p.count, 0)).toBe(inIndex.length);
    expect(inIndex.length).toBe(24);
    // Every key attribute is listed with the keys, before the other paths.
    expect(report.attributes.slice(0, 5).map((a) => a.path)).toEqual([
      'id',
      'tenant',
      '"reg.ion"',
      '"#day"',
      'seq',
    ]);
  });
});
