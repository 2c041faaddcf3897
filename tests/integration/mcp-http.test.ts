import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { McpExposure, McpExposureSettings } from '../../src/shared/ipc/mcp';
import { type BrowserCore, localConnection, startBrowserCore } from '../support/browser-core';
import { rawRequest } from '../support/browser-http';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { resultJson } from '../support/mcp-result';

const endpoint = inject('dynamoEndpoint');
const dynamo = localClient(endpoint);
let app: BrowserCore;
let table: string;
let other: string;
/** A second saved connection to the same DynamoDB Local: "prod" beside the "dev" one. */
let prodId: string;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function expose(connectionId: string, settings: Partial<McpExposureSettings>): Promise<McpExposure> {
  const saved = await app.call<McpExposure>('mcp:saveExposure', {
    connectionId,
    settings: {
      enabled: true,
      tables: [],
      maxItems: 1000,
      maxRcu: 50,
      allowWrites: false,
      allowScans: false,
      ...settings,
    },
  });
  if (!saved.ok) throw new Error(saved.error.message);
  return saved.value;
}

async function connect(exposure: McpExposure, token = exposure.token): Promise<Client> {
  const client = new Client({ name: 'http-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(exposure.url ?? ''), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, json: resultJson(result) };
}

beforeAll(async () => {
  table = await createTable(dynamo, uniqueTableName('mcphttp'), {
    partitionKey: ['PK', 'S'],
    sortKey: ['SK', 'S'],
  });
  other = await createTable(dynamo, uniqueTableName('mcphttpother'), { partitionKey: ['id', 'S'] });
  await putItems(
    dynamo,
    table,
    Array.from({ length: 40 }, (_, i) => ({
      PK: { S: `CUSTOMER#${i % 2}` },
      SK: { S: `ORDER#${String(i).padStart(3, '0')}` },
      total: { N: String(i) },
    })),
  );
  await putItems(dynamo, other, [{ id: { S: 'x' } }]);
  app = await startBrowserCore(endpoint);
  const prod = await app.call<{ id: string }>('connections:save', {
    connection: { ...localConnection(endpoint), label: 'Prod (local)' },
  });
  if (!prod.ok) throw new Error(prod.error.message);
  prodId = prod.value.id;
});

afterAll(async () => {
  await app.close();
  dynamo.destroy();
});

describe('MCP over streamable HTTP, served by the running app', () => {
  it('is off by default, and once switched on reads under that connection’s budgets and refuses a Scan', async () => {
    const before = await app.call<McpExposure>('mcp:getExposure', { connectionId: app.connectionId });
    expect(before.ok && before.value.enabled).toBe(false);
    expect(before.ok && before.value.url).toBeUndefined();

    const exposure = await expose(app.connectionId, { maxItems: 15, tables: [table] });
    expect(exposure.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\//);
    expect(exposure.commands.claudeCode).toBe(
      `claude mcp add --transport http dynotable-dynamodb-local ${exposure.url} --header "Authorization: Bearer ${exposure.token}"`,
    );
    expect(JSON.parse(exposure.commands.vscode)).toEqual({
      servers: {
        'dynotable-dynamodb-local': {
          type: 'http',
          url: exposure.url,
          headers: { Authorization: `Bearer ${exposure.token}` },
        },
      },
    });
    const client = await connect(exposure);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('propose_changes');
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);

      const query = await call(client, 'query', { table, partitionKey: 'CUSTOMER#1', limit: 100 });
      expect(query.json.count).toBe(15);
      expect(String(query.json.budgetReached)).toMatch(/items budget of this tool call \(15 items\)/);

      const scan = await call(client, 'scan', { table, limit: 5 });
      expect(scan.isError).toBe(true);
      expect(scan.json.code).toBe('ScanRefused');

      const listed = await call(client, 'list_tables', {});
      expect((listed.json.tables as { name: string }[]).map((t) => t.name)).toEqual([table]);
      const outside = await call(client, 'get_item', { table: other, partitionKey: 'x' });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('gives each connection its own token and grant: dev and prod are never one', async () => {
    const dev = await expose(app.connectionId, { tables: [table] });
    const prod = await expose(prodId, { tables: [other] });
    expect(prod.token).not.toBe(dev.token);
    await expect(connect(prod, dev.token)).rejects.toThrow();
    const client = await connect(prod);
    try {
      const listed = await call(client, 'list_tables', {});
      expect((listed.json.tables as { name: string }[]).map((t) => t.name)).toEqual([other]);
    } finally {
      await client.close();
    }
  });

  it('refuses a wrong token, a foreign Host or Origin, and an old token once regenerated', async () => {
    const exposure = await expose(app.connectionId, {});
    const url = new URL(exposure.url ?? '');
    const port = Number(url.port);
    const send = (headers: Record<string, string>) =>
      rawRequest({
        port,
        path: url.pathname,
        method: 'POST',
        headers: { ...MCP_HEADERS, ...headers },
        body: INITIALIZE,
      });

    const good = await send({ authorization: `Bearer ${exposure.token}` });
    expect(good.status).toBe(200);
    const wrong = await send({ authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain(exposure.token);
    const none = await send({});
    expect(none.status).toBe(401);
    const host = await send({ authorization: `Bearer ${exposure.token}`, host: `evil.example:${port}` });
    expect(host.status).toBe(421);
    const origin = await send({ authorization: `Bearer ${exposure.token}`, origin: 'https://evil.example' });
    expect(origin.status).toBe(403);

    const renewed = await app.call<McpExposure>('mcp:regenerateToken', { connectionId: app.connectionId });
    if (!renewed.ok) throw new Error(renewed.error.message);
    expect(renewed.value.token).not.toBe(exposure.token);
    expect((await send({ authorization: `Bearer ${exposure.token}` })).status).toBe(401);
    expect((await send({ authorization: `Bearer ${renewed.value.token}` })).status).toBe(200);

    await expose(app.connectionId, { enabled: false });
    expect((await send({ authorization: `Bearer ${renewed.value.token}` })).status).toBe(401);
    // Nothing above wrote: the table still holds its 40 items.
    const tally = await dynamo.send(new ScanCommand({ TableName: table, Select: 'COUNT' }));
    expect(tally.Count).toBe(40);
  });
});
