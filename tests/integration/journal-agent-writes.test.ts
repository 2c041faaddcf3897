import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { journalPairs, type JournalPair } from '../../src/main/journal/journal-files';
import type { AgentEvent, OperationEvent } from '../../src/shared/ipc';
import type { JournalEntry, UndoReport } from '../../src/shared/ipc/journal';
import { agentHarness, describeTableTurn } from '../support/agent-harness';
import type { ScriptedTurn } from '../support/fake-bedrock';
import { startFaultyDynamo, type FaultRule, type FaultyDynamo } from '../support/faulty-dynamo';
import { canonical, rawDynamo, rawGetItem } from '../support/raw-dynamo';

/**
 * Approved agent writes through a proxy that loses DynamoDB's answers after the write was applied,
 * or refuses every attempt before it reaches DynamoDB. The app's own client (adaptive retry, five
 * attempts) and the fake Bedrock Runtime drive the real agent; the oracle is DynamoDB Local's raw
 * wire JSON, read past the proxy and the SDK: the journal holds a line for exactly the writes that
 * landed, each with the item as it was, and Undo restores that byte for byte.
 */
type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;
let proxy: FaultyDynamo;
let upstream: string;
let undos = 0;

beforeAll(async () => {
  upstream = inject('dynamoEndpoint');
  proxy = await startFaultyDynamo(upstream);
  h = await agentHarness(proxy.endpoint);
  await h.configure('local');
});
afterAll(async () => {
  await h.closeAll();
  await proxy.close();
});

type Change = Record<string, unknown>;

const proposing = (reason: string, changes: Change[]): ScriptedTurn[] => [
  describeTableTurn(h.table),
  { kind: 'tool', tools: [{ name: 'propose_changes', input: { reason, changes } }] },
  { kind: 'text', text: 'Done.' },
];

const rawKey = (pk: string) => ({ pk: { S: pk } });
const rawItem = (pk: string) => rawGetItem(upstream, h.table, rawKey(pk));

/** Proposes `changes`; while the card waits, `meanwhile` runs; then the user approves. */
async function approve(
  reason: string,
  changes: Change[],
  meanwhile: () => Promise<void> | void = () => undefined,
) {
  const events: OperationEvent[] = [];
  const stop = h.ctx.events.subscribe((event) => {
    if (event.type === 'written' || event.type === 'journal') events.push(event);
  });
  const run = await h.ask({
    question: reason,
    script: proposing(reason, changes),
    onApproval: async (id) => {
      await meanwhile();
      await h.call('agent:decide', { approvalId: id, approve: true });
    },
  });
  stop();
  expect(run.last.type).toBe('done');
  const resolved = run.agentEvents.find(
    (e): e is AgentEvent & { kind: 'approval-resolved' } => e.kind === 'approval-resolved',
  );
  return { outcome: resolved?.outcome, events };
}

async function entriesOfTable(): Promise<JournalEntry[]> {
  const listed = await journalHandlers['journal:list']({ connectionId: 'local', table: h.table }, h.ctx);
  return listed.entries;
}

async function linesOf(entry: JournalEntry): Promise<JournalPair[]> {
  const lines: JournalPair[] = [];
  for await (const chunk of journalPairs(h.dataDir, 'local', entry.id)) lines.push(...chunk);
  return lines;
}

async function undo(entry: JournalEntry): Promise<UndoReport> {
  const requestId = `agent_undo_${++undos}`;
  const done = h.waitFor(requestId);
  await journalHandlers['journal:undo']({ connectionId: 'local', entryId: entry.id, requestId }, h.ctx);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`undo ended ${last.type}: ${JSON.stringify(last)}`);
  return last.value as UndoReport;
}

/** The entry the card just made: the newest of the table, from the agent, in the model's words. */
async function newestEntry(reason: string): Promise<JournalEntry> {
  const [entry] = await entriesOfTable();
  expect(entry).toMatchObject({ source: 'agent', action: 'commit', reason: `Agent: ${reason}` });
  return entry!;
}

const dropEvery = (pk: string, operation: string, rule: Partial<FaultRule> = {}): FaultRule => ({
  operation,
  fault: 'drop-answer',
  bodyIncludes: `"${pk}"`,
  ...rule,
});

describe('an approved agent write whose answer was lost', () => {
  it('is retried under its condition, journaled with the item as it was, and undone exactly', async () => {
    await h.put({ pk: { S: 'LOST-U' }, status: { S: 'open' }, note: { S: 'n1' }, amount: { N: '10.50' } });
    await h.put({ pk: { S: 'LOST-D' }, status: { S: 'open' }, tags: { SS: ['a', 'b'] } });
    const beforeDelete = await rawItem('LOST-D');
    let beforeUpdate: Record<string, unknown> | null = null;
    const reason = 'Close LOST-U and drop LOST-D';
    const { outcome, events } = await approve(
      reason,
      [
        {
          action: 'update',
          table: h.table,
          partitionKey: 'LOST-U',
          set: { status: 'closed' },
          remove: ['note'],
        },
        { action: 'delete', table: h.table, partitionKey: 'LOST-D' },
      ],
      async () => {
        // Someone changes an attribute the update does not touch while the card waits: the
        // update still goes out (its condition holds only what it touches), and the item as it
        // was before the write now holds that change.
        await rawDynamo(upstream, 'UpdateItem', {
          TableName: h.table,
          Key: rawKey('LOST-U'),
          UpdateExpression: 'SET amount = :a',
          ExpressionAttributeValues: { ':a': { N: '11' } },
        });
        beforeUpdate = await rawItem('LOST-U');
        // DynamoDB applies each first attempt; its answer is thrown away and the SDK sends it again.
        proxy.script(
          dropEvery('LOST-U', 'UpdateItem', { next: 1 }),
          dropEvery('LOST-D', 'DeleteItem', { next: 1 }),
        );
      },
    );
    proxy.heal();
    expect(proxy.refused('UpdateItem').length + proxy.refused('DeleteItem').length).toBeGreaterThanOrEqual(2);
    expect(outcome).toBe('Approved: 2 of 2 written.');
    expect(await rawItem('LOST-U')).toEqual({
      pk: { S: 'LOST-U' },
      status: { S: 'closed' },
      amount: { N: '11' },
    });
    expect(await rawItem('LOST-D')).toBeNull();

    // Every open view heard it from the agent, and History was told.
    const written = events.filter((e) => e.type === 'written' && e.source === 'agent');
    expect(
      written.flatMap((e) => (e.type === 'written' ? e.items.map((i) => canonical(i.key)) : [])),
    ).toEqual([canonical(rawKey('LOST-U')), canonical(rawKey('LOST-D'))]);
    expect(events.some((e) => e.type === 'journal' && e.table === h.table)).toBe(true);

    const entry = await newestEntry(reason);
    expect(entry.count).toBe(2);
    const lines = await linesOf(entry);
    expect(lines.map((l) => [canonical(l.key), canonical(l.before), l.isUnconfirmed])).toEqual([
      [canonical(rawKey('LOST-U')), canonical(beforeUpdate), undefined],
      [canonical(rawKey('LOST-D')), canonical(beforeDelete), undefined],
    ]);

    expect(await undo(entry)).toMatchObject({ restored: 2, alreadyRestored: 0, conflicts: 0, failed: 0 });
    expect(canonical(await rawItem('LOST-U'))).toBe(canonical(beforeUpdate));
    expect(canonical(await rawItem('LOST-D'))).toBe(canonical(beforeDelete));
  }, 120_000);
});

describe('an approved agent write whose send threw after its intent was noted', () => {
  it('every answer lost after DynamoDB applied it: the journal reads the item and keeps the write', async () => {
    await h.put({ pk: { S: 'GONE-U' }, status: { S: 'open' }, count: { N: '1' } });
    const before = await rawItem('GONE-U');
    const reason = 'Close GONE-U';
    const { outcome } = await approve(
      reason,
      [{ action: 'update', table: h.table, partitionKey: 'GONE-U', set: { status: 'closed' } }],
      () => proxy.script(dropEvery('GONE-U', 'UpdateItem')),
    );
    proxy.heal();
    // Every attempt reached DynamoDB and none was answered: the agent is told it may have landed.
    expect(
      proxy.refused('UpdateItem').filter((c) => JSON.stringify(c.body).includes('GONE-U')).length,
    ).toBeGreaterThan(1);
    expect(outcome).toMatch(
      /^Approved: 0 of 1 written; answer lost: it may have been written \(.+\); the undo History lists it if it was\.$/,
    );
    expect(await rawItem('GONE-U')).toEqual({
      pk: { S: 'GONE-U' },
      status: { S: 'closed' },
      count: { N: '1' },
    });

    const entry = await newestEntry(reason);
    const lines = await linesOf(entry);
    expect(lines.map((l) => [canonical(l.before), canonical(l.after), l.isUnconfirmed])).toEqual([
      [canonical(before), canonical(await rawItem('GONE-U')), undefined],
    ]);
    expect(await undo(entry)).toMatchObject({ restored: 1, conflicts: 0, failed: 0 });
    expect(canonical(await rawItem('GONE-U'))).toBe(canonical(before));
  }, 120_000);

  it('refused before it reached DynamoDB: no entry is invented', async () => {
    await h.put({ pk: { S: 'NEVER-U' }, status: { S: 'open' } });
    const before = await rawItem('NEVER-U');
    const known = new Set((await entriesOfTable()).map((e) => e.id));
    const { outcome } = await approve(
      'Close NEVER-U',
      [{ action: 'update', table: h.table, partitionKey: 'NEVER-U', set: { status: 'closed' } }],
      () => proxy.script({ operation: 'UpdateItem', fault: 'validation', bodyIncludes: '"NEVER-U"' }),
    );
    proxy.heal();
    expect(outcome).toMatch(/^Approved: 0 of 1 written; failed: /);
    expect(canonical(await rawItem('NEVER-U'))).toBe(canonical(before));
    expect((await entriesOfTable()).filter((e) => !known.has(e.id))).toEqual([]);
  }, 120_000);
});
