import { DynamoDBClient, ListTablesCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { sqlHandlers } from '../../../src/main/ipc/handlers/sql';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { regionalConnectionId } from '../../../src/shared/dynamo/regions';
import { blankDefinition } from '../../../src/shared/dynamo/table-definition';
import type { Connection } from '../../../src/shared/ipc/connection';
import type { SqlCatalogOutput, SqlResultSummary, SqlWindow } from '../../../src/shared/ipc/sql';
import { uniqueTableName } from '../../support/dynamo-local';
import { createKeyedTable } from '../../support/dynamo-tables';
import { itemsHarness, useAppClients, type ItemsHarness } from '../../support/items-context';
import { startRegionProxy, type RegionProxy } from '../../support/region-proxy';
import { createThrough, nextRequestId } from '../../support/table-admin';

// SQL over a table of another region: the workbench reads through `<connection>@<region>`, and
// that id's catalog and statements must be the other region's. The proxy sends every region to
// one DynamoDB Local, which keeps a database per access key and signed region, so the same table
// name in ca-central-1 and us-west-2 holds different items, as in two AWS regions.
let h: ItemsHarness;
let proxy: RegionProxy;
const account: Connection = {
  id: 'sqlregions',
  label: 'Account',
  color: '#1f6feb',
  kind: 'keys',
  region: 'ca-central-1',
  readOnly: false,
  isProduction: false,
  hasStoredKeys: true,
};
const west = regionalConnectionId(account.id, 'us-west-2');
const orders = uniqueTableName('orders');
const westOnly = uniqueTableName('westonly');

function regionClient(region: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function tableIn(region: string, name: string, ids: string[]): Promise<void> {
  const client = regionClient(region);
  await createKeyedTable(client, name, {
    items: ids.map((id) => ({ id: { S: id }, region: { S: region } })),
  });
  client.destroy();
}

/** The region's own answer, read with a plain client signed for it: the oracle. */
async function rawIn(region: string, table: string): Promise<string[]> {
  const client = regionClient(region);
  const items = (await client.send(new ScanCommand({ TableName: table }))).Items ?? [];
  client.destroy();
  return items.map((item) => `${item.id?.S}|${item.region?.S}`).sort();
}

async function namesIn(region: string): Promise<string[]> {
  const client = regionClient(region);
  const names = (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  client.destroy();
  return names;
}

async function catalog(connectionId: string): Promise<string[]> {
  const answer = await h.call<SqlCatalogOutput>('sql:catalog', { connectionId });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.tables.map((t) => t.name);
}

async function select(connectionId: string, table: string): Promise<string[]> {
  const requestId = nextRequestId('sql');
  const finished = h.waitFor(requestId);
  const started = await h.call('sql:run', {
    connectionId,
    requestId,
    sql: `SELECT id, region FROM "${table}"`,
  });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await finished;
  if (last.type !== 'done') throw new Error(JSON.stringify(last));
  const { resultId } = last.value as SqlResultSummary;
  const window = await h.call<SqlWindow>('sql:window', { resultId, offset: 0, limit: 100 });
  if (!window.ok) throw new Error(window.error.message);
  return window.value.rows.map((row) => row.map((v) => (v && 'S' in v ? v.S : '')).join('|')).sort();
}

beforeAll(async () => {
  proxy = await startRegionProxy(inject('dynamoEndpoint'), {});
  process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpoint;
  h = itemsHarness(inject('dynamoEndpoint'), { ...tableHandlers, ...operationHandlers, ...sqlHandlers });
  await h.ctx.connections.save(account);
  useAppClients(h);
  await tableIn('ca-central-1', orders, ['home-1']);
  await tableIn('us-west-2', orders, ['west-1', 'west-2']);
  await tableIn('us-west-2', westOnly, ['only-1']);
}, 60_000);
afterAll(async () => {
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  await h.close();
  await proxy.close();
});

describe('SQL through <connection>@<region>', () => {
  it("lists the other region's tables in the catalog, and only them", async () => {
    const home = await catalog(account.id);
    const there = await catalog(west);
    expect(there.sort()).toEqual((await namesIn('us-west-2')).sort());
    expect(home.sort()).toEqual((await namesIn('ca-central-1')).sort());
    expect(there).toContain(westOnly);
    expect(home).not.toContain(westOnly);
  });

  it("reads the other region's items for the same table name, as that region's own Scan does", async () => {
    const there = await select(west, orders);
    expect(there).toEqual(await rawIn('us-west-2', orders));
    expect(there).toEqual(['west-1|us-west-2', 'west-2|us-west-2']);
    expect(await select(account.id, orders)).toEqual(await rawIn('ca-central-1', orders));
    expect(await select(west, westOnly)).toEqual(['only-1|us-west-2']);
  });

  it('says in a sentence that a table of the other region is not in this one', async () => {
    const answer = await h.call('sql:plan', { connectionId: account.id, sql: `SELECT * FROM "${westOnly}"` });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toContain(westOnly);
  });

  it('sees a table DynoTable created in the other region at once, without a refresh', async () => {
    const made = uniqueTableName('westmade');
    await catalog(west);
    const created = await createThrough(
      h,
      { ...blankDefinition(), name: made, partitionKey: { name: 'id', type: 'S' } },
      west,
    );
    expect(created.last.type).toBe('done');
    expect(await namesIn('us-west-2')).toContain(made);
    expect(await namesIn('ca-central-1')).not.toContain(made);
    expect(await catalog(west)).toContain(made);
    expect(await catalog(account.id)).not.toContain(made);
  });
});
