import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMcpServer } from '../../src/main/mcp/mcp-server';
import { proposalBoard } from '../../src/main/mcp/proposals';
import { McpToolSession } from '../../src/main/mcp/tool-session';
import type { McpProposal } from '../../src/shared/ipc/mcp';
import { type BrowserCore, startBrowserCore } from '../support/browser-core';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { resultJson } from '../support/mcp-result';
import { canonical, rawGetItem } from '../support/raw-dynamo';

// How an agent's proposal ends when the app's board holds it: no answer in time, an answer in
// the client (elicitation) that withdraws it from the app, and a rejection sent through the
// app's channel. The real MCP server and SDK client over the SDK's in-memory transport, the real
// core and DynamoDB Local; only the timeout is shortened.
const endpoint = inject('dynamoEndpoint');
const dynamo = localClient(endpoint);
const KEY = { id: { S: 'order-1' } };
let app: BrowserCore;
let table: string;

async function connect(name: string, answerInClient?: 'accept'): Promise<Client> {
  const connection = await app.core.connections.get(app.connectionId);
  const session = new McpToolSession({
    ctx: app.core,
    connection,
    tables: [table],
    maxItems: 100,
    maxRcu: 10,
    allowWrites: true,
    allowScans: false,
    approvalTimeoutMs: 1_500,
  });
  const server = createMcpServer(session, 'test', proposalBoard(app.core));
  const client = new Client(
    { name, version: '2.0.0' },
    { capabilities: answerInClient ? { elicitation: { form: {} } } : {} },
  );
  if (answerInClient)
    client.setRequestHandler(ElicitRequestSchema, async () => {
      // The app shows it too until the client answers.
      await expect.poll(() => proposalBoard(app.core).list().length).toBe(1);
      return { action: 'accept', content: { confirm: true } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

function propose(client: Client, status: string): Promise<CallToolResult> {
  return client.callTool({
    name: 'propose_changes',
    arguments: {
      reason: `Set status ${status}`,
      changes: [{ action: 'update', table, partitionKey: 'order-1', set: { status } }],
    },
  }) as Promise<CallToolResult>;
}

beforeAll(async () => {
  table = await createTable(dynamo, uniqueTableName('mcpappr'), { partitionKey: ['id', 'S'] });
  await putItems(dynamo, table, [{ id: { S: 'order-1' }, status: { S: 'open' } }]);
  app = await startBrowserCore(endpoint);
});

afterAll(async () => {
  await app.close();
  dynamo.destroy();
});

describe('an MCP proposal on the app board', () => {
  it('expires unanswered with a sentence for the agent, and writes nothing', async () => {
    const before = await rawGetItem(endpoint, table, KEY);
    const client = await connect('slow-agent');
    const published: McpProposal[][] = [];
    const stop = app.core.events.subscribe((event) => {
      if (event.type === 'proposals') published.push(event.proposals);
    });
    const result = await propose(client, 'shipped');
    stop();
    expect(result.isError).toBe(true);
    expect(resultJson(result).error).toBe(
      'Nobody approved these changes in DynoTable within 2 seconds, so nothing was written. Ask the user to look at "Agent proposals" in DynoTable, then propose again.',
    );
    // Shown with the client's name and the item as read, then taken away.
    const shown = published[0]?.[0];
    expect(shown?.client).toBe('slow-agent 2.0.0');
    expect(shown?.items?.[0]?.before).toEqual({ id: { S: 'order-1' }, status: { S: 'open' } });
    expect(shown?.items?.[0]?.after).toEqual({ id: { S: 'order-1' }, status: { S: 'shipped' } });
    expect(published.at(-1)).toEqual([]);
    expect(canonical(await rawGetItem(endpoint, table, KEY))).toBe(canonical(before));
    await client.close();
  });

  it('takes the answer of a client that can ask, and withdraws the proposal from the app', async () => {
    const client = await connect('asking-agent', 'accept');
    const result = await propose(client, 'packed');
    expect(resultJson(result).outcomes).toEqual(['written']);
    expect(proposalBoard(app.core).list()).toEqual([]);
    expect(await rawGetItem(endpoint, table, KEY)).toEqual({ id: { S: 'order-1' }, status: { S: 'packed' } });
    await client.close();
  });

  it("is rejected through the app's channel, and the agent is told so", async () => {
    const before = await rawGetItem(endpoint, table, KEY);
    const client = await connect('eager-agent');
    const call = propose(client, 'cancelled');
    await expect.poll(() => proposalBoard(app.core).list().length).toBe(1);
    const listed = await app.call<{ proposals: McpProposal[] }>('mcp:listProposals', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const id = listed.value.proposals[0]?.id;
    const decided = await app.call<{ decided: boolean }>('mcp:decideProposal', { id, approve: false });
    expect(decided.ok && decided.value.decided).toBe(true);
    const result = await call;
    expect(resultJson(result).error).toBe(
      'The user rejected these changes in DynoTable. Nothing was written.',
    );
    expect(canonical(await rawGetItem(endpoint, table, KEY))).toBe(canonical(before));
    // Answered once: a second answer finds nothing waiting.
    const again = await app.call<{ decided: boolean }>('mcp:decideProposal', { id, approve: true });
    expect(again.ok && again.value.decided).toBe(false);
    await client.close();
  });
});
