import { PutItemCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleTableDefinition } from '../../../src/shared/dynamo/table-definition';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { queryHandlers } from '../../../src/main/ipc/handlers/query';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { tableSummary } from '../../../src/main/dynamo/table-metadata';
import { itemsHarness, runQuery, type ItemsHarness } from '../../support/items-context';
import { startDynamoLocal, uniqueTableName, type LocalDynamo } from '../../support/dynamo-local';
import { createThrough, describeRaw, nextRequestId, updateThrough } from '../../support/table-admin';

// The one table-metadata module: descriptions are cached, and every change DynoTable makes is
// seen at once by every path that reads them (here, the Items tab's query:start).
// Adding a GSI waits behind whatever else a DynamoDB Local is doing (minutes next to the shared
// instance's 50,000-item purge on CI), so these tests have one of their own.
let local: LocalDynamo;
let h: ItemsHarness;
beforeAll(async () => {
  local = await startDynamoLocal();
  h = itemsHarness(local.endpoint, { ...tableHandlers, ...queryHandlers, ...operationHandlers });
});
afterAll(async () => {
  await h.close();
  await local.stop();
});

async function newTable(prefix: string): Promise<string> {
  const definition = { ...singleTableDefinition(uniqueTableName(prefix)), ttlAttribute: undefined };
  await createThrough(h, definition);
  await h.client.send(
    new PutItemCommand({
      TableName: definition.name,
      Item: { PK: { S: 'u#1' }, SK: { S: 'a' }, G2: { S: 'g' }, GSI1PK: { S: 'x' }, GSI1SK: { S: 'y' } },
    }),
  );
  return definition.name;
}

const queryG2 = (table: string) =>
  h.call('query:start', {
    connectionId: 'local',
    table,
    requestId: nextRequestId('q'),
    spec: { mode: 'query', index: 'ByG2', partitionKey: { S: 'g' } },
  });

describe('the cached table description', () => {
  it('knows an index DynoTable added at once, though the table was read (and described) just before', async () => {
    const table = await newTable('metaadd');
    expect((await runQuery(h, { table, spec: { mode: 'scan' } })).last.type).toBe('done');
    await updateThrough(h, table, {
      kind: 'addIndex',
      index: { name: 'ByG2', partitionKey: { name: 'G2', type: 'S' }, projection: { type: 'ALL' } },
    });
    const started = await queryG2(table);
    expect(started.ok, JSON.stringify(started)).toBe(true);
  });

  it('keeps a description for a while: an index another tool adds is known after a fresh look', async () => {
    const table = await newTable('metaother');
    const client = await h.ctx.clients.dynamo('local');
    expect((await tableSummary(client, table)).indexes.map((i) => i.name)).toEqual(['GSI1']);
    await h.client.send(
      new UpdateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'G2', AttributeType: 'S' }],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: 'ByG2',
              KeySchema: [{ AttributeName: 'G2', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    expect((await describeRaw(h, table)).GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual([
      'ByG2',
      'GSI1',
    ]);
    // Within the cache's freshness the read path still works from the description it had...
    const refused = await queryG2(table);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'InvalidInput', message: `The table ${table} has no index named ByG2.` },
    });
    // ...and opening the table's page (tables:describe asks DynamoDB now) refreshes it for everyone.
    const described = await h.call('tables:describe', { connectionId: 'local', table });
    expect(described.ok).toBe(true);
    expect((await queryG2(table)).ok).toBe(true);
  });

  it('forgets a table DynoTable deleted, and describes a table re-created under its name afresh', async () => {
    const table = await newTable('metadel');
    const client = await h.ctx.clients.dynamo('local');
    expect((await tableSummary(client, table)).keys.sortKey?.name).toBe('SK');
    const requestId = nextRequestId('delete');
    const finished = h.waitFor(requestId);
    const started = await h.call('tables:delete', {
      connectionId: 'local',
      table,
      requestId,
      confirmTable: table,
    });
    expect(started.ok, JSON.stringify(started)).toBe(true);
    expect((await finished).last.type).toBe('done');
    await expect(tableSummary(client, table)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });

    await createThrough(h, {
      ...singleTableDefinition(table),
      ttlAttribute: undefined,
      sortKey: undefined,
      globalIndexes: [],
      partitionKey: { name: 'id', type: 'N' },
    });
    const summary = await tableSummary(client, table);
    expect(summary.keys).toEqual({ partitionKey: { name: 'id', type: 'N' }, sortKey: undefined });
    expect(summary.indexes).toEqual([]);
  });
});
