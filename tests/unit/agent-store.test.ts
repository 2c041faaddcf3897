import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentStep, OperationEvent } from '../../src/shared/ipc';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { useAgentStore } from '../../src/renderer/features/agent/store';
import { useOperationsStore } from '../../src/renderer/features/operations/store';

// The renderer half of the agent: main's events (forwarded as operation events of type 'agent')
// become the turn the panel draws. The bridge stands in for main and records what was asked.

interface Recorded {
  channel: string;
  input: Record<string, unknown>;
}
let calls: Recorded[];
let answers: Record<string, unknown>;

beforeEach(() => {
  calls = [];
  answers = {
    'agent:ask': { conversationId: 'conv_1' },
    'agent:decide': { accepted: true },
    'ops:cancel': {},
  };
  const bridge = new Proxy(
    {},
    {
      get: (_target, channel: string) => (input: Record<string, unknown>) => {
        calls.push({ channel, input });
        return Promise.resolve({ ok: true, value: answers[channel] });
      },
    },
  );
  (globalThis as Record<string, unknown>).window = { [BRIDGE_KEY]: bridge };
  useAgentStore.setState({ chats: {}, settings: {} });
});

afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
});

const connectionId = 'conn-1';
let seq = 0;

/** Starts a question and returns a function that delivers main's events for it. */
async function startQuestion(question = 'How many users?') {
  await useAgentStore.getState().ask(connectionId, question);
  const requestId = String(calls.find((c) => c.channel === 'agent:ask')?.input.requestId);
  const receive = (event: AgentEvent | { type: 'done' | 'cancelled' }): void => {
    const operation: OperationEvent =
      'kind' in event
        ? { type: 'agent', requestId, seq: seq++, event }
        : { type: event.type, requestId, seq: seq++, progress: { items: 0, pages: 0, consumedCapacity: 0 } };
    useOperationsStore.getState().receive(operation);
  };
  return { requestId, receive };
}

const chat = () => useAgentStore.getState().chats[connectionId];
const turn = () => chat()?.turns.at(-1);

describe('the agent store applies main’s events', () => {
  it('joins text deltas into one block and keeps order with steps', async () => {
    const { receive } = await startQuestion();
    expect(chat()?.runningRequestId).toBeDefined();
    expect(turn()?.status).toBe('running');
    receive({ kind: 'text', delta: 'Let me ' });
    receive({ kind: 'text', delta: 'look.' });
    const step: AgentStep = { id: 'tu_1', tool: 'scan', input: { table: 'T', limit: 10 }, status: 'running' };
    receive({ kind: 'step', step });
    receive({ kind: 'text', delta: 'There are ' });
    receive({ kind: 'text', delta: '40 users.' });
    expect(turn()?.blocks).toEqual([
      { kind: 'text', text: 'Let me look.' },
      { kind: 'step', step },
      { kind: 'text', text: 'There are 40 users.' },
    ]);
  });

  it('updates a step in place when it finishes', async () => {
    const { receive } = await startQuestion();
    const running: AgentStep = { id: 'tu_1', tool: 'query', input: { table: 'T' }, status: 'running' };
    receive({ kind: 'step', step: running });
    receive({ kind: 'step', step: { id: 'tu_2', tool: 'scan', input: {}, status: 'running' } });
    receive({
      kind: 'step',
      step: {
        ...running,
        status: 'done',
        summary: '12 items',
        resultSetId: 'rs_1',
        items: 12,
        consumedCapacity: 0.5,
      },
    });
    const steps = turn()?.blocks.flatMap((b) => (b.kind === 'step' ? [b.step] : []));
    expect(steps?.map((s) => [s.id, s.status])).toEqual([
      ['tu_1', 'done'],
      ['tu_2', 'running'],
    ]);
    expect(steps?.[0]).toMatchObject({ resultSetId: 'rs_1', items: 12, consumedCapacity: 0.5 });
  });

  it('resolves an approval card with the decision and its outcome, and sends the decision to main', async () => {
    const { receive } = await startQuestion('Mark u1 as VIP');
    receive({
      kind: 'approval',
      approval: {
        id: 'appr_1',
        kind: 'write',
        summary: 'Mark u1 (1 write)',
        requests: [{ operation: 'UpdateItem' }],
      },
    });
    await useAgentStore.getState().decide(connectionId, 'appr_1', true);
    expect(calls.at(-1)).toEqual({ channel: 'agent:decide', input: { approvalId: 'appr_1', approve: true } });
    receive({ kind: 'approval-resolved', id: 'appr_1', approved: true, outcome: '1 of 1 written' });
    const card = turn()?.blocks.find((b) => b.kind === 'approval');
    expect(card).toMatchObject({
      approval: { id: 'appr_1', decision: 'approved', outcome: '1 of 1 written' },
    });
  });

  it('closes a card main no longer waits for, instead of leaving it clickable', async () => {
    const { receive } = await startQuestion();
    receive({ kind: 'approval', approval: { id: 'appr_2', kind: 'write', summary: 'x', requests: [] } });
    answers['agent:decide'] = { accepted: false };
    await useAgentStore.getState().decide(connectionId, 'appr_2', true);
    expect(turn()?.blocks[0]).toMatchObject({
      approval: { decision: 'rejected', outcome: 'This request is no longer waiting.' },
    });
  });

  it('keeps the latest usage, then finishes the turn and continues the conversation', async () => {
    const first = await startQuestion();
    const budgets = { modelCalls: 12, toolCalls: 24, tokens: 200_000, itemsRead: 20_000, readCapacity: 500 };
    const usage = {
      modelCalls: 2,
      toolCalls: 1,
      inputTokens: 300,
      outputTokens: 40,
      itemsRead: 12,
      readCapacity: 0.5,
    };
    first.receive({ kind: 'usage', usage, budgets });
    first.receive({
      kind: 'notice',
      message: 'Budget reached (24 tool calls); the agent is answering with what it has.',
    });
    first.receive({ type: 'done' });
    expect(turn()).toMatchObject({ status: 'done', usage, budgets });
    const notice = turn()?.blocks.at(-1);
    expect(notice?.kind === 'notice' && notice.message).toMatch(/^Budget reached/);
    expect(chat()?.runningRequestId).toBeUndefined();
    expect(chat()?.conversationId).toBe('conv_1');

    await startQuestion('And how many orders?');
    expect(calls.filter((c) => c.channel === 'agent:ask').at(-1)?.input.conversationId).toBe('conv_1');
  });

  it('stops the running question through ops:cancel and shows it as cancelled', async () => {
    const { requestId, receive } = await startQuestion();
    await useAgentStore.getState().stop(connectionId);
    expect(calls.at(-1)).toEqual({ channel: 'ops:cancel', input: { requestId } });
    receive({ type: 'cancelled' });
    expect(turn()?.status).toBe('cancelled');
    expect(chat()?.runningRequestId).toBeUndefined();
  });

  it('ignores events of other requests', async () => {
    await startQuestion();
    useOperationsStore.getState().receive({
      type: 'agent',
      requestId: 'agent-someone-else',
      seq: seq++,
      event: { kind: 'text', delta: 'not mine' },
    });
    expect(turn()?.blocks).toEqual([]);
  });
});
