import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AgentEvent, AgentSettings, Connection } from '../../../src/shared/ipc';
import { agentHarness, describeTableTurn } from '../../support/agent-harness';
import type { ScriptedTurn } from '../../support/fake-bedrock';
import { createItemsTable } from '../../support/items-context';

// An approval card can wait for minutes. What decides whether its write goes out is the
// connection and the agent settings as they are when the user approves, and the client of that
// moment: a client replaced meanwhile refuses writes at once.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;
let original: Connection;

const proposing = (pk: string): ScriptedTurn[] => [
  describeTableTurn(h.table),
  {
    kind: 'tool',
    tools: [
      {
        name: 'propose_changes',
        input: {
          reason: `Flag ${pk}`,
          changes: [{ action: 'update', table: h.table, partitionKey: pk, set: { flagged: true } }],
        },
      },
    ],
  },
  { kind: 'text', text: 'Reported.' },
];

/** Proposes one update of `pk`; while the card waits, `meanwhile` runs; then the user approves. */
async function approveAfter(pk: string, meanwhile: () => Promise<void>) {
  const run = await h.ask({
    question: `Flag ${pk}`,
    script: proposing(pk),
    onApproval: async (id) => {
      await meanwhile();
      await h.call('agent:decide', { approvalId: id, approve: true });
    },
  });
  expect(run.last.type).toBe('done');
  const resolved = run.agentEvents.find(
    (e): e is AgentEvent & { kind: 'approval-resolved' } => e.kind === 'approval-resolved',
  );
  type Sent = { toolResult?: { content: { json?: { error?: string } }[] } };
  const [result] = (h.fake.requests.at(-1)?.body.messages as { content: Sent[] }[]).at(-1)?.content ?? [];
  return { run, outcome: resolved?.outcome, toolError: result?.toolResult?.content[0]?.json?.error };
}

async function saveConnection(changes: Partial<Connection>): Promise<void> {
  const saved = await h.call('connections:save', { connection: { ...original, ...changes } });
  expect(saved.ok).toBe(true);
}

async function configure(overrides: Partial<AgentSettings>): Promise<void> {
  await h.configure('local', overrides);
}

beforeAll(async () => {
  h = await agentHarness(inject('dynamoEndpoint'));
  for (const pk of ['A', 'B', 'C', 'D', 'E']) await h.put({ pk: { S: pk }, name: { S: `Item ${pk}` } });
  original = await h.ctx.connections.get('local');
  await h.configure('local');
});
afterEach(async () => {
  await saveConnection({});
  await h.configure('local');
});
afterAll(async () => h.closeAll());

describe('an approved write is judged at the moment of writing', () => {
  it('writes nothing when the connection was made read-only while the card waited, and says why', async () => {
    const { outcome, toolError } = await approveAfter('A', () => saveConnection({ readOnly: true }));
    expect(await h.get('A')).toEqual({ pk: { S: 'A' }, name: { S: 'Item A' } });
    const why = 'not written: the connection "Local" was made read-only while the card waited';
    expect(outcome).toBe(`Approved: 0 of 1 written; ${why}.`);
    expect(toolError).toBe(`The user approved, but nothing was written (${why}).`);
  });

  it('writes nothing to a table removed from the allowed tables while the card waited', async () => {
    const other = await createItemsTable(h.client, { prefix: 'agentother' });
    const { outcome, toolError } = await approveAfter('B', () => configure({ allowedTables: [other] }));
    expect(await h.get('B')).toEqual({ pk: { S: 'B' }, name: { S: 'Item B' } });
    const why = `not written: the table ${h.table} was removed from the tables the agent may use while the card waited`;
    expect(outcome).toBe(`Approved: 0 of 1 written; ${why}.`);
    expect(toolError).toBe(`The user approved, but nothing was written (${why}).`);
  });

  it('writes nothing when the agent was set to read-only while the card waited', async () => {
    const { outcome } = await approveAfter('C', () => configure({ mode: 'read-only' }));
    expect(await h.get('C')).toEqual({ pk: { S: 'C' }, name: { S: 'Item C' } });
    expect(outcome).toBe(
      'Approved: 0 of 1 written; not written: the agent was set to read-only on this connection while the card waited.',
    );
  });

  it('writes through the connection as it is now after an edit that still allows writing', async () => {
    // Renaming replaces the cached client; the write goes through the new one, not the retired one.
    const { outcome } = await approveAfter('D', () => saveConnection({ label: 'Local renamed' }));
    expect(outcome).toBe('Approved: 1 of 1 written.');
    expect((await h.get('D'))?.flagged).toEqual({ BOOL: true });
  });
});

describe('a replaced client', () => {
  it('refuses a write at once and still answers a read', async () => {
    const retired = await h.ctx.clients.dynamo('local');
    await saveConnection({ label: 'Local edited' });
    const write = retired.send(
      new PutItemCommand({ TableName: h.table, Item: { pk: { S: 'RETIRED' }, name: { S: 'x' } } }),
    );
    await expect(write).rejects.toMatchObject({
      code: 'ConnectionChanged',
      message:
        'The connection was changed while this request waited, so DynoTable did not send PutItem with its old settings. Try again: it will use the connection as it is now.',
    });
    expect(await h.get('RETIRED')).toBeUndefined();
    const read = await retired.send(new GetItemCommand({ TableName: h.table, Key: { pk: { S: 'E' } } }));
    expect(read.Item?.name).toEqual({ S: 'Item E' });
    const current = await h.ctx.clients.dynamo('local');
    expect(current).not.toBe(retired);
    await current.send(
      new PutItemCommand({ TableName: h.table, Item: { pk: { S: 'CURRENT' }, name: { S: 'y' } } }),
    );
    expect((await h.get('CURRENT'))?.name).toEqual({ S: 'y' });
  });
});
