import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentHarness, describeTableTurn } from '../../support/agent-harness';

// "Ask" mode: a read estimated above the user's threshold waits for a card, like a write does;
// in "auto-read" the same read just runs. Enforced in main, whatever the model asks for.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;

beforeAll(async () => {
  h = await agentHarness(inject('dynamoEndpoint'));
  for (let i = 1; i <= 6; i++) await h.put({ pk: { S: `ITEM#${i}` }, n: { N: String(i) } });
});
afterAll(async () => h.closeAll());

const scanScript = () => [
  describeTableTurn(h.table),
  { kind: 'tool' as const, tools: [{ name: 'scan', input: { table: h.table, limit: 100 } }] },
  { kind: 'text' as const, text: 'Done.' },
];

describe('permission modes for reads', () => {
  it('asks before a costly read in ask mode, and reads nothing when declined', async () => {
    await h.configure('local', { mode: 'ask', askAboveReadCapacity: 0 });
    const cards: string[] = [];
    const run = await h.ask({
      question: 'Read everything',
      script: scanScript(),
      onApproval: async (id, event) => {
        cards.push(event.approval.kind);
        expect(event.approval.requests[0]).toMatchObject({
          operation: 'Scan',
          TableName: h.table,
          Limit: 100,
        });
        await h.call('agent:decide', { approvalId: id, approve: false });
      },
    });
    expect(cards).toEqual(['read']);
    const steps = run.agentEvents.flatMap((e) =>
      e.kind === 'step' && e.step.tool === 'scan' ? [e.step.status] : [],
    );
    expect(steps).toEqual(['running', 'waiting-approval', 'error']);
    const usage = run.agentEvents.filter((e) => e.kind === 'usage').at(-1);
    expect(usage?.kind === 'usage' && usage.usage.itemsRead).toBe(0);
  });

  it('runs the read once approved', async () => {
    const run = await h.ask({
      question: 'Read everything',
      script: scanScript(),
      onApproval: (id) => h.call('agent:decide', { approvalId: id, approve: true }).then(() => undefined),
    });
    const done = run.agentEvents.find(
      (e) => e.kind === 'step' && e.step.tool === 'scan' && e.step.status === 'done',
    );
    expect(done?.kind === 'step' && done.step.items).toBe(6);
  });

  it('runs the same read without a card in auto-read mode', async () => {
    await h.configure('local', { mode: 'auto-read', askAboveReadCapacity: 0 });
    const run = await h.ask({
      question: 'Read everything',
      script: scanScript(),
      onApproval: () => expect.fail('no card expected'),
    });
    expect(run.agentEvents.some((e) => e.kind === 'approval')).toBe(false);
    expect(run.last.type).toBe('done');
  });
});
