import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { tableHandlers } from '../../src/main/ipc/handlers/tables';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { TableDetails } from '../../src/main/dynamo/table-metadata';
import type { OperationEvent } from '../../src/shared/ipc';
import type { CopyReport } from '../../src/shared/ipc/copy';
import { tableChecksum } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';
import {
  createMultiKeyTable,
  MULTI_INDEX,
  MULTI_KEY_SCHEMA,
  rawIndexQuery,
} from '../support/multi-key-table';
import { canonical, rawDynamo } from '../support/raw-dynamo';

let h: ItemsHarness;
let endpoint: string;
let table: string;
let refusals = 0;

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...queryHandlers, ...copyHandlers, ...tableHandlers });
  table = uniqueTableName('multikey');
  await createMultiKeyTable(endpoint, table);
});
afterAll(() => h.close());

const ids = (items: Record<string, unknown>[]): string[] => items.map((i) => canonical(i)).sort();

async function query(spec: Record<string, unknown>): Promise<{ rows: Item[]; last: OperationEvent }> {
  const { resultSetId, last } = await runQuery(h, { table, spec, maxItems: 1000 });
  const window = await h.ctx.resultSets.window(resultSetId, 0, 1000);
  return { rows: window.rows, last };
}

describe('a table with a 2 + 2 multi-attribute GSI', () => {
  it('describes the index with every partition and sort attribute in DescribeTable order', async () => {
    const described = await h.call<TableDetails>('tables:describe', { connectionId: 'local', table });
    if (!described.ok) throw new Error(described.error.message);
    const raw = await rawDynamo<{ Table: { GlobalSecondaryIndexes: { KeySchema: unknown }[] } }>(
      endpoint,
      'DescribeTable',
      { TableName: table },
    );
    expect(raw.Table.GlobalSecondaryIndexes[0]?.KeySchema).toEqual(MULTI_KEY_SCHEMA);
    expect(described.value.summary.indexes[0]?.keys).toEqual({
      partitionKey: { name: 'tenant', type: 'S' },
      morePartitionKeys: [{ name: 'reg.ion', type: 'S' }],
      sortKey: { name: '#day', type: 'S' },
      moreSortKeys: [{ name: 'seq', type: 'N' }],
    });
  });

  it('queries every partition attribute and a prefix of the sort attributes, as DynamoDB Local answers', async () => {
    const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{}, '#t = :t AND #r = :r', {}],
      [
        { sortKey: { op: '=', value: { S: 'd1' } } },
        '#t = :t AND #r = :r AND #d = :d',
        { ':d': { S: 'd1' } },
      ],
      [
        {
          sortKey: { op: '=', value: { S: 'd1' } },
          moreSortKeys: [{ op: 'between', value: { N: '5' }, value2: { N: '30' } }],
        },
        '#t = :t AND #r = :r AND #d = :d AND #s BETWEEN :a AND :b',
        { ':d': { S: 'd1' }, ':a': { N: '5' }, ':b': { N: '30' } },
      ],
      [
        { sortKey: { op: 'begins_with', value: { S: 'd' } } },
        '#t = :t AND #r = :r AND begins_with(#d, :d)',
        { ':d': { S: 'd' } },
      ],
    ];
    for (const [sort, keyCondition, values] of cases) {
      const { rows, last } = await query({
        mode: 'query',
        index: MULTI_INDEX,
        partitionKey: { S: 't1' },
        morePartitionKeys: [{ S: 'eu' }],
        ...sort,
      });
      expect(last.type).toBe('done');
      const oracle = await rawIndexQuery(
        endpoint,
        table,
        keyCondition,
        {
          '#t': 'tenant',
          '#r': 'reg.ion',
          ...(keyCondition.includes('#d') ? { '#d': '#day' } : {}),
          ...(keyCondition.includes('#s') ? { '#s': 'seq' } : {}),
        },
        { ':t': { S: 't1' }, ':r': { S: 'eu' }, ...values },
      );
      expect(oracle.length).toBeGreaterThan(0);
      expect(ids(rows as Record<string, unknown>[])).toEqual(ids(oracle));
      // The hostile names arrive as own attributes, not as the prototype.
      expect(Object.prototype.hasOwnProperty.call(rows[0], '__proto__')).toBe(true);
    }
  });

  it('refuses, before any request, a query that DynamoDB would refuse, naming the rule', async () => {
    const refused = async (spec: Record<string, unknown>): Promise<string> => {
      const started = await h.call('query:start', {
        connectionId: 'local',
        requestId: `refused_${Date.now()}_${++refusals}`,
        table,
        spec: { mode: 'query', index: MULTI_INDEX, partitionKey: { S: 't1' }, ...spec },
      });
      if (started.ok) throw new Error('the query was accepted');
      return started.error.message;
    };
    expect(await refused({})).toMatch(
      /needs a value for every partition attribute \("tenant", "reg\.ion"\); "reg\.ion" has none/,
    );
    expect(
      await refused({ morePartitionKeys: [{ S: 'eu' }], moreSortKeys: [{ op: '>', value: { N: '3' } }] }),
    ).toMatch(/"#day" needs a condition, because "seq" after it has one.*skips none/);
    expect(
      await refused({
        morePartitionKeys: [{ S: 'eu' }],
        sortKey: { op: '>', value: { S: 'd0' } },
        moreSortKeys: [{ op: '=', value: { N: '3' } }],
      }),
    ).toMatch(/"#day" must be compared with =.*only the last sort attribute/);
    // DynamoDB Local refuses the same two shapes (the rules are DynamoDB's, not ours).
    await expect(
      rawIndexQuery(
        endpoint,
        table,
        '#t = :t AND #r = :r AND #s = :s',
        { '#t': 'tenant', '#r': 'reg.ion', '#s': 'seq' },
        { ':t': { S: 't1' }, ':r': { S: 'eu' }, ':s': { N: '3' } },
      ),
    ).rejects.toThrow(/ValidationException/);
    await expect(
      rawIndexQuery(
        endpoint,
        table,
        '#t = :t AND #r = :r AND #d > :d AND #s = :s',
        { '#t': 'tenant', '#r': 'reg.ion', '#d': '#day', '#s': 'seq' },
        { ':t': { S: 't1' }, ':r': { S: 'eu' }, ':d': { S: 'd0' }, ':s': { N: '3' } },
      ),
    ).rejects.toThrow(/ValidationException/);
  });

  it('copies the table into a new one that has the same index with the same key order', async () => {
    const target = uniqueTableName('multikeycopy');
    const requestId = `copy_${Date.now()}`;
    const done = h.waitFor(requestId);
    const started = await h.call('copy:start', {
      requestId,
      source: { connectionId: 'local', table },
      target: { connectionId: 'local', table: target, create: true },
    });
    if (!started.ok) throw new Error(started.error.message);
    const { last } = await done;
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    expect(last.value as CopyReport).toMatchObject({ created: true, itemsFailed: 0 });
    const raw = await rawDynamo<{
      Table: {
        GlobalSecondaryIndexes: { IndexName: string; KeySchema: unknown }[];
        AttributeDefinitions: unknown[];
      };
    }>(endpoint, 'DescribeTable', { TableName: target });
    expect(raw.Table.GlobalSecondaryIndexes.map((g) => [g.IndexName, g.KeySchema])).toEqual([
      [MULTI_INDEX, MULTI_KEY_SCHEMA],
    ]);
    expect(await tableChecksum(endpoint, target)).toEqual(await tableChecksum(endpoint, table));
  });
});
