import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { McpExposure } from '../../src/shared/ipc/mcp';
import { type BrowserCore, startBrowserCore } from '../support/browser-core';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { runCli } from '../support/cli-run';
import { createTable, putItems } from '../support/dynamo-tables';
import { resultJson } from '../support/mcp-result';
import { mcpStdioTransport } from '../support/mcp-stdio';
import { rawReadAll } from '../support/raw-dynamo';

// The Schema view's key templates and a saved query, served as named tools on both transports
// by the official MCP SDK client; each result is compared with the same Query (or SELECT) run
// directly through the built-in tool, and with DynamoDB Local's own answer over the wire.
const endpoint = inject('dynamoEndpoint');
const dynamo = localClient(endpoint);
let app: BrowserCore;
let table: string;
const clients: Client[] = [];
const BIG_ORDERS = 130;

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, json: resultJson(result) };
}

/** What two reads must share: everything but the ids of the result sets each one stored. */
function comparable(json: Record<string, unknown>): Record<string, unknown> {
  const { resultSetId: _id, ...rest } = json;
  return rest;
}

/** DynamoDB Local's own answer over the wire: partition = value AND sort BETWEEN low AND high. */
function wireBetween(
  index: string | undefined,
  [pk, value]: [string, string],
  [sk, low, high]: [string, string, string],
): Promise<Record<string, unknown>[]> {
  return rawReadAll(endpoint, 'Query', {
    TableName: table,
    ...(index ? { IndexName: index } : {}),
    KeyConditionExpression: '#p = :p AND #s BETWEEN :a AND :b',
    ExpressionAttributeNames: { '#p': pk, '#s': sk },
    ExpressionAttributeValues: { ':p': { S: value }, ':a': { S: low }, ':b': { S: high } },
  });
}

async function viaHttp(): Promise<Client> {
  const saved = await app.call<McpExposure>('mcp:saveExposure', {
    connectionId: app.connectionId,
    settings: {
      enabled: true,
      tables: [table],
      maxItems: 1000,
      maxRcu: 50,
      allowWrites: false,
      allowScans: false,
    },
  });
  if (!saved.ok) throw new Error(saved.error.message);
  const client = new Client({ name: 'patterns-http', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(saved.value.url ?? ''), {
      requestInit: { headers: { Authorization: `Bearer ${saved.value.token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** `dynotable mcp` on the same data folder: the app's saved connection, queries and schema reads. */
async function viaStdio(): Promise<Client> {
  const transport = mcpStdioTransport(['--connection', app.connectionId, '--tables', table], app.dataDir, {
    AWS_REGION: 'us-east-1',
  });
  const client = new Client({ name: 'patterns-stdio', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  table = await createTable(dynamo, uniqueTableName('mcppat'), {
    partitionKey: ['PK', 'S'],
    sortKey: ['SK', 'S'],
    globalIndexes: [{ name: 'ByStatus', partitionKey: ['GSI1PK', 'S'], sortKey: ['GSI1SK', 'S'] }],
  });
  const items = [];
  for (let c = 0; c < 3; c++) {
    items.push({ PK: { S: `CUSTOMER#c${c}` }, SK: { S: 'PROFILE' }, name: { S: `Customer ${c}` } });
    for (let o = 1; o <= 12; o++) {
      const day = `2024-${String(o).padStart(2, '0')}-1${c}`;
      const status = ['PAID', 'SHIPPED', 'OPEN'][o % 3] ?? 'OPEN';
      items.push({
        PK: { S: `CUSTOMER#c${c}` },
        SK: { S: `ORDER#${day}` },
        total: { N: String(o * 10 + c) },
        GSI1PK: { S: `STATUS#${status}` },
        GSI1SK: { S: day },
      });
    }
  }
  // A customer with more orders than a pattern's cap (100 items per call) lets it read.
  items.push({ PK: { S: 'CUSTOMER#big' }, SK: { S: 'PROFILE' }, name: { S: 'Big customer' } });
  for (let o = 1; o <= BIG_ORDERS; o++) {
    const day = `2025-${String(o).padStart(3, '0')}`;
    items.push({
      PK: { S: 'CUSTOMER#big' },
      SK: { S: `ORDER#${day}` },
      total: { N: String(o) },
      GSI1PK: { S: 'STATUS#ARCHIVED' },
      GSI1SK: { S: day },
    });
  }
  await putItems(dynamo, table, items);
  app = await startBrowserCore(endpoint);
  const requestId = `patterns-schema-${Date.now()}`;
  const finished = app.waitFor(requestId);
  const started = await app.call('schema:analyze', {
    connectionId: app.connectionId,
    table,
    requestId,
    mode: 'full',
  });
  if (!started.ok) throw new Error(started.error.message);
  expect((await finished).last.type).toBe('done');
  const saved = await app.call('sql:saveQuery', {
    connectionId: app.connectionId,
    name: 'Profile of a customer',
    sql: `SELECT name FROM "${table}" WHERE PK = {{customer}} AND SK = 'PROFILE'`,
  });
  if (!saved.ok) throw new Error(saved.error.message);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
  dynamo.destroy();
});

describe.each([
  ['streamable HTTP', viaHttp],
  ['stdio', viaStdio],
])('access patterns as tools over %s', (_transport, connect) => {
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    client = await connect();
    tools = (await client.listTools()).tools;
  }, 60_000);

  it('lists the key templates and the saved query as typed read-only tools', () => {
    const orders = tools.find((t) => t.name === 'orders_by_customer');
    expect(orders?.inputSchema.required).toEqual(['customer']);
    expect(Object.keys(orders?.inputSchema.properties ?? {})).toEqual([
      'customer',
      'from',
      'to',
      'limit',
      'newestFirst',
    ]);
    expect(orders?.description).toContain('PK=CUSTOMER#<customer> SK=ORDER#<from…to>');
    expect(orders?.description).toContain('At most 100 items and 10 RCU per call');
    expect(orders?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === 'orders_by_status')?.description).toContain('ByStatus');
    const profile = tools.find((t) => t.name === 'profile_of_a_customer');
    expect(profile?.inputSchema.required).toEqual(['customer']);
    expect(profile?.annotations?.readOnlyHint).toBe(true);
  });

  it("answers orders_by_customer exactly as the same Query, and as DynamoDB Local's own", async () => {
    const named = await call(client, 'orders_by_customer', {
      customer: 'c1',
      from: '2024-03',
      to: '2024-07',
    });
    const direct = await call(client, 'query', {
      table,
      partitionKey: 'CUSTOMER#c1',
      sortKey: { op: 'between', value: 'ORDER#2024-03', value2: 'ORDER#2024-07' },
    });
    expect(named.isError).toBe(false);
    expect(comparable(named.json)).toEqual(comparable(direct.json));
    const wire = await wireBetween(
      undefined,
      ['PK', 'CUSTOMER#c1'],
      ['SK', 'ORDER#2024-03', 'ORDER#2024-07'],
    );
    expect(named.json.count).toBe(wire.length);
    expect(wire.length).toBe(4);
    const sample = named.json.sample as { SK: string }[];
    expect(sample.map((i) => i.SK)).toEqual(
      wire.slice(0, sample.length).map((i) => (i.SK as { S: string }).S),
    );
  });

  it('says when its own cap cut the read, returning a prefix of the same Query, and how to read on', async () => {
    const wire = (
      await rawReadAll(endpoint, 'Query', {
        TableName: table,
        KeyConditionExpression: '#p = :p AND begins_with(#s, :o)',
        ExpressionAttributeNames: { '#p': 'PK', '#s': 'SK' },
        ExpressionAttributeValues: { ':p': { S: 'CUSTOMER#big' }, ':o': { S: 'ORDER#' } },
      })
    ).map((i) => (i.SK as { S: string }).S);
    expect(wire.length).toBe(BIG_ORDERS);
    const named = await call(client, 'orders_by_customer', { customer: 'big' });
    expect(named.isError).toBe(false);
    expect(named.json.count).toBe(100);
    expect(named.json.truncated).toBe(true);
    expect(String(named.json.budgetReached)).toContain('(100 items) was reached');
    // The first items are the Query's first, and the last one read is the Query's 100th.
    const sample = (named.json.sample as { SK: string }[]).map((i) => i.SK);
    expect(sample).toEqual(wire.slice(0, sample.length));
    const last = wire[99]!.slice('ORDER#'.length);
    expect(named.json.cutByCap).toBe(
      `This tool's own cap (100 items and 10 RCU per call) cut the read short: these are the first 100 items of its answer, in order. To read on, call orders_by_customer again with {"customer":"big","from":"${last}"} (inclusive: its first item is the last one here).`,
    );
    // Read on as told: the rest of the same Query, from the last item on.
    const next = await call(client, 'orders_by_customer', { customer: 'big', from: last });
    expect(next.json.count).toBe(BIG_ORDERS - 99);
    expect(next.json.cutByCap).toBeUndefined();
    expect((next.json.sample as { SK: string }[])[0]?.SK).toBe(wire[99]);
    // The built-in query, under the connection's own budget, is not cut.
    const direct = await call(client, 'query', {
      table,
      partitionKey: 'CUSTOMER#big',
      sortKey: { op: 'begins_with', value: 'ORDER#' },
    });
    expect(direct.json.count).toBe(BIG_ORDERS);
    expect(direct.json.sample).toEqual(named.json.sample);
  });

  it("reads a whole partition's orders without a range, and an index's key template on the GSI", async () => {
    const all = await call(client, 'orders_by_customer', { customer: 'c2' });
    expect(all.json.count).toBe(12);
    const byStatus = await call(client, 'orders_by_status', {
      status: 'PAID',
      from: '2024-01',
      to: '2024-12',
    });
    const wire = await wireBetween('ByStatus', ['GSI1PK', 'STATUS#PAID'], ['GSI1SK', '2024-01', '2024-12']);
    expect(byStatus.json.count).toBe(wire.length);
  });

  it('runs the saved query with its parameter as the same SELECT run directly', async () => {
    const named = await call(client, 'profile_of_a_customer', { customer: "CUSTOMER#c0' OR 'x'='x" });
    expect(named.json.rowCount).toBe(0);
    const found = await call(client, 'profile_of_a_customer', { customer: 'CUSTOMER#c0' });
    const direct = await call(client, 'run_sql', {
      statement: `SELECT name FROM "${table}" WHERE PK = 'CUSTOMER#c0' AND SK = 'PROFILE'`,
    });
    expect(found.json.rows).toEqual([{ name: 'Customer 0' }]);
    // The second read of the same key comes from SQL's cache, so only the answer is compared.
    const answer = (json: Record<string, unknown>) => [json.columns, json.rowCount, json.rows];
    expect(answer(found.json)).toEqual(answer(direct.json));
  });

  it('serves the entities and key templates as a resource', async () => {
    const uri = `dynotable://schema/${encodeURIComponent(table)}`;
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    const first = read.contents[0];
    const json = JSON.parse(first && 'text' in first ? first.text : '{}') as {
      entities: { name: string; keyPattern: string }[];
      accessPatterns: { tool: string; template: string }[];
    };
    expect(json.entities.find((e) => e.name === 'orders')?.keyPattern).toBe('PK=CUSTOMER#… SK=ORDER#…');
    expect(json.accessPatterns).toContainEqual({
      tool: 'orders_by_customer',
      template: 'PK=CUSTOMER#<customer> SK=ORDER#<from…to>',
      params: ['customer', 'from', 'to', 'limit', 'newestFirst'],
    });
  });
});

it('prints the access patterns with --dry-run, reading nothing', async () => {
  const run = await runCli(['mcp', '--dry-run', '--connection', app.connectionId, '--tables', table], {
    AWS_REGION: 'us-east-1',
    DYNOTABLE_DATA_DIR: app.dataDir,
  });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('each at most 100 items and 10 RCU per call');
  expect(run.stdout).toContain('  orders_by_customer  PK=CUSTOMER#<customer> SK=ORDER#<from…to>\n');
  expect(run.stdout).toContain('  profile_of_a_customer  saved query\n');
});
