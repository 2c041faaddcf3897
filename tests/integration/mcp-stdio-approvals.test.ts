import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import { createConnectionStore } from '../../src/main/aws/connection-store';
import { proposalBoard } from '../../src/main/mcp/proposals';
import type { JournalEntry } from '../../src/shared/ipc/journal';
import type { McpProposal } from '../../src/shared/ipc/mcp';
import { type BrowserCore, localConnection, startBrowserCore } from '../support/browser-core';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { resultJson } from '../support/mcp-result';
import { mcpStdioTransport } from '../support/mcp-stdio';
import { canonical, rawGetItem } from '../support/raw-dynamo';

// Approvals for `dynotable mcp` (stdio, a process of its own) in the running app: the real CLI
// in a child process driven by the official SDK client, and a real core with browser mode's
// wiring standing in for the app in the same data folder. The app shows the proposal on the
// same board as HTTP proposals, writes it itself through the write door (journaled under the
// client's name), and the agent is told what the app did. DynamoDB Local's raw answer is the oracle.
const endpoint = inject('dynamoEndpoint');
const dynamo = localClient(endpoint);
const KEY = { id: { S: 'order-1' } };
let app: BrowserCore;
let table: string;
const open: Client[] = [];

async function startServer(dataDir: string, connection: string, clientName: string, canAsk = false) {
  const transport = mcpStdioTransport(
    ['--connection', connection, '--allow-writes', '--tables', table],
    dataDir,
  );
  const client = new Client(
    { name: clientName, version: '4.2.0' },
    { capabilities: canAsk ? { elicitation: { form: {} } } : {} },
  );
  open.push(client);
  await client.connect(transport);
  return client;
}

function propose(client: Client, set: Record<string, unknown>, reason: string) {
  return client.callTool(
    {
      name: 'propose_changes',
      arguments: { reason, changes: [{ action: 'update', table, partitionKey: 'order-1', set }] },
    },
    undefined,
    { timeout: 120_000 },
  ) as Promise<CallToolResult>;
}

/** The proposal once the app shows it, as its windows get it (mcp:listProposals). */
async function shownInApp(): Promise<McpProposal> {
  await expect.poll(() => proposalBoard(app.core).list().length, { timeout: 30_000 }).toBe(1);
  const listed = await app.call<{ proposals: McpProposal[] }>('mcp:listProposals', {});
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.proposals[0]!;
}

async function decide(id: string, approve: boolean): Promise<boolean> {
  const decided = await app.call<{ decided: boolean }>('mcp:decideProposal', { id, approve });
  if (!decided.ok) throw new Error(decided.error.message);
  return decided.value.decided;
}

beforeAll(async () => {
  table = await createTable(dynamo, uniqueTableName('mcpstdio'), { partitionKey: ['id', 'S'] });
  await putItems(dynamo, table, [{ id: { S: 'order-1' }, status: { S: 'open' } }]);
  app = await startBrowserCore(endpoint);
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await app.close();
  dynamo.destroy();
});

describe('stdio proposals approved in the app', () => {
  it('shows the exact request and diff, writes it in the app on approval, journaled under the client', async () => {
    const agent = await startServer(app.dataDir, app.connectionId, 'stdio-coder');
    const call = propose(agent, { status: 'shipped', 'a.b': 'dots are data' }, 'Ship order 1');
    const shown = await shownInApp();
    expect(shown.client).toBe('stdio-coder 4.2.0');
    expect(shown.connectionLabel).toBe('DynamoDB Local');
    expect(shown.summary).toBe('Ship order 1 (1 write)');
    expect(shown.items).toEqual([
      {
        table,
        key: KEY,
        before: { id: { S: 'order-1' }, status: { S: 'open' } },
        after: { id: { S: 'order-1' }, status: { S: 'shipped' }, 'a.b': { S: 'dots are data' } },
      },
    ]);
    expect(shown.requests[0]).toMatchObject({
      operation: 'UpdateItem',
      TableName: table,
      Key: KEY,
      ReturnValues: 'ALL_OLD',
    });
    expect(String(shown.requests[0]?.ConditionExpression)).toContain('attribute_exists');
    // Nothing is written while it waits.
    expect(await rawGetItem(endpoint, table, KEY)).toEqual({ id: { S: 'order-1' }, status: { S: 'open' } });

    expect(await decide(shown.id, true)).toBe(true);
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(resultJson(result).outcomes).toEqual(['written']);
    expect(await rawGetItem(endpoint, table, KEY)).toEqual({
      id: { S: 'order-1' },
      status: { S: 'shipped' },
      'a.b': { S: 'dots are data' },
    });
    // Written by the app: its History has it under source mcp and the client's name.
    const listed = await app.call<{ entries: JournalEntry[] }>('journal:list', {
      connectionId: app.connectionId,
      table,
    });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.value.entries[0]).toMatchObject({
      source: 'mcp',
      reason: 'MCP client stdio-coder 4.2.0: Ship order 1',
      count: 1,
    });
    expect(proposalBoard(app.core).list()).toEqual([]);
  }, 120_000);

  it('rejected in the app: the table is unchanged and the agent is told in a sentence', async () => {
    const before = await rawGetItem(endpoint, table, KEY);
    const agent = await startServer(app.dataDir, app.connectionId, 'stdio-rejected');
    const call = propose(agent, { status: 'lost' }, 'Lose order 1');
    const shown = await shownInApp();
    expect(await decide(shown.id, false)).toBe(true);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(resultJson(result).error).toBe(
      'The user rejected these changes in DynoTable. Nothing was written.',
    );
    expect(canonical(await rawGetItem(endpoint, table, KEY))).toBe(canonical(before));
    // Answered once: a second answer finds nothing waiting.
    expect(await decide(shown.id, true)).toBe(false);
  }, 120_000);

  it('answered first in a client that can ask: the app drops it and the server writes', async () => {
    const agent = await startServer(app.dataDir, app.connectionId, 'stdio-asking', true);
    agent.setRequestHandler(ElicitRequestSchema, async () => {
      // The app shows it too until the client answers.
      await shownInApp();
      return { action: 'accept', content: { confirm: true } };
    });
    const result = await propose(agent, { status: 'packed' }, 'Pack order 1');
    expect(resultJson(result).outcomes).toEqual(['written']);
    expect((await rawGetItem(endpoint, table, KEY))?.status).toEqual({ S: 'packed' });
    await expect.poll(() => proposalBoard(app.core).list(), { timeout: 10_000 }).toEqual([]);
  }, 120_000);

  it('with no app running and no elicitation, tells the agent to open DynoTable and writes nothing', async () => {
    // A data folder with the same saved connection, and no app beating in it.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-mcp-noapp-'));
    const connections = createConnectionStore(dataDir, createUnavailableSecretStore());
    const saved = await connections.save({ ...localConnection(endpoint), label: 'Local, no app' });
    const before = await rawGetItem(endpoint, table, KEY);
    const agent = await startServer(dataDir, saved.id, 'stdio-alone');
    const result = await propose(agent, { status: 'gone' }, 'Nobody is there');
    expect(result.isError).toBe(true);
    expect(resultJson(result).error).toMatch(
      /^Refused: writes need the user's approval, and DynoTable is not running to ask for it .*Nothing was written\. Ask the user to open DynoTable/,
    );
    expect(canonical(await rawGetItem(endpoint, table, KEY))).toBe(canonical(before));
  }, 120_000);
});
