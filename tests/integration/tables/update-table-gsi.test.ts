import { BatchWriteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleTableDefinition } from '../../../src/shared/dynamo/table-definition';
import type { ItemsHarness } from '../../support/items-context';
import { startDynamoLocal, uniqueTableName, type LocalDynamo } from '../../support/dynamo-local';
import {
  createThrough,
  describeRaw,
  progressMessages,
  tableAdminHarness,
  updateThrough,
} from '../../support/table-admin';

// DynamoDB Local backfills a new GSI behind whatever else the shared instance is doing: next to
// the 50,000-item purge of purge-table.test.ts it took over four minutes on CI (two seconds alone).
// This test gets a DynamoDB Local of its own, so it measures the follow, not the neighbours.
let local: LocalDynamo;
let h: ItemsHarness;
beforeAll(async () => {
  local = await startDynamoLocal();
  h = tableAdminHarness(local.endpoint);
});
afterAll(async () => {
  await h.close();
  await local.stop();
});

async function newTable(prefix: string): Promise<string> {
  const definition = { ...singleTableDefinition(uniqueTableName(prefix)), ttlAttribute: undefined };
  await createThrough(h, definition);
  return definition.name;
}

/** 60 items, a third of them in the partition `G#1` of GSI2PK: the count a query on GSI2 must find. */
async function fill(table: string): Promise<number> {
  const items = Array.from({ length: 60 }, (_, i) => ({
    PK: { S: `USER#${i}` },
    SK: { S: 'PROFILE' },
    ...(i % 2 === 0 ? { GSI2PK: { S: `G#${i % 3}` }, GSI2SK: { N: String(i) } } : {}),
  }));
  for (let start = 0; start < items.length; start += 25)
    await h.client.send(
      new BatchWriteItemCommand({
        RequestItems: { [table]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  return items.filter((i) => i.GSI2PK?.S === 'G#1').length;
}

const queryGsi2 = (table: string) =>
  h.client.send(
    new QueryCommand({
      TableName: table,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :p',
      ExpressionAttributeValues: { ':p': { S: 'G#1' } },
    }),
  );

describe('tables:update of a GSI against its own DynamoDB Local', () => {
  it('adds a GSI, follows its backfill until ACTIVE, and queries on it find the existing items; then deletes it', async () => {
    const table = await newTable('gsi');
    const expected = await fill(table);
    const added = await updateThrough(h, table, {
      kind: 'addIndex',
      index: {
        name: 'GSI2',
        partitionKey: { name: 'GSI2PK', type: 'S' },
        sortKey: { name: 'GSI2SK', type: 'N' },
        projection: { type: 'KEYS_ONLY' },
      },
    });
    expect(progressMessages(added.events).at(-1)).toMatch(/is ACTIVE\.$/);
    const gsi2 = (await describeRaw(h, table)).GlobalSecondaryIndexes?.find((g) => g.IndexName === 'GSI2');
    expect(gsi2?.IndexStatus).toBe('ACTIVE');
    expect(added.result.summary.indexes.map((i) => [i.name, i.status])).toContainEqual(['GSI2', 'ACTIVE']);
    expect((await queryGsi2(table)).Count).toBe(expected);

    const deleted = await updateThrough(h, table, { kind: 'deleteIndex', name: 'GSI2' });
    expect(deleted.result.summary.indexes.map((i) => i.name)).toEqual(['GSI1']);
    expect((await describeRaw(h, table)).GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(['GSI1']);
    await expect(queryGsi2(table)).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
