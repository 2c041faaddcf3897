import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AgentEvent } from '../../../src/shared/ipc';
import { agentHarness, lastToolResult } from '../../support/agent-harness';

// Ask mode and the scan limit (issue 17): a run_sql whose local plan scans past the limit the
// user set is refused when proposed, so the user is never asked to approve a read that could
// only be refused after; within the limit the card comes as before.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;

beforeAll(async () => {
  h = await agentHarness(inject('dynamoEndpoint'));
  for (let i = 1; i <= 6; i++) await h.put({ pk: { S: `ITEM#${i}` }, n: { N: String(i) } });
  await h.configure('local', { mode: 'ask', askAboveReadCapacity: 0 });
});
afterAll(async () => h.closeAll());

async function setScanLimit(items: number): Promise<void> {
  const saved = await h.call('athena:saveSettings', {
    connectionId: 'local',
    limits: { items },
  });
  if (!saved.ok) throw new Error(saved.error.message);
}

/** Asks with one run_sql call; every approval card is recorded, then approved as a user would. */
async function askSql(statement: string) {
  const cards: string[] = [];
  const run = await h.ask({
    question: 'How many items?',
    script: [
      { kind: 'tool', tools: [{ name: 'run_sql', input: { statement } }] },
      { kind: 'text', text: 'Answered.' },
    ],
    onApproval: async (id, event) => {
      cards.push(event.approval.summary);
      await h.call('agent:decide', { approvalId: id, approve: true });
    },
  });
  const steps = run.agentEvents.flatMap((e: AgentEvent) =>
    e.kind === 'step' && e.step.tool === 'run_sql' ? [e.step.status] : [],
  );
  const usage = run.agentEvents.filter((e) => e.kind === 'usage').at(-1);
  return {
    run,
    cards,
    steps,
    itemsRead: usage?.kind === 'usage' ? usage.usage.itemsRead : undefined,
    result: lastToolResult(h.fake.requests.at(-1)),
  };
}

describe('run_sql past the scan limit in ask mode', () => {
  it('is refused when proposed: no approval card, the refusal is the tool result', async () => {
    await setScanLimit(3);
    const { run, cards, steps, itemsRead, result } = await askSql(`SELECT COUNT(*) AS n FROM "${h.table}"`);
    expect(run.last.type).toBe('done');
    expect(cards).toEqual([]);
    expect(run.agentEvents.some((e) => e.kind === 'approval')).toBe(false);
    // Shown and logged as refused (a rule the user set), not as a failure.
    expect(steps).toEqual(['running', 'refused']);
    expect(itemsRead).toBe(0);
    expect(result.status).toBe('error');
    expect(result.json.code).toBe('ScanLimitExceeded');
    expect(result.json.error).toMatch(
      new RegExp(`would scan ${h.table} whole and nothing was read: 6 items is more than the limit of 3\\.`),
    );
    expect(result.json.note).toMatch(
      /in the SQL workbench they can run it on Amazon Athena or raise the scan limit/,
    );
    const audit = (await readFile(join(h.dataDir, 'agent-audit.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"tool-call"'))
      .map((line) => JSON.parse(line) as { tool: string; outcome: string });
    expect(audit.at(-1)).toMatchObject({ tool: 'run_sql', outcome: 'refused' });
  });

  it('still asks for a read within the limit, and for the same scan once the user raised it', async () => {
    const keyed = await askSql(`SELECT n FROM "${h.table}" WHERE pk = 'ITEM#2'`);
    expect(keyed.cards).toHaveLength(1);
    expect(keyed.result.status).toBe('success');
    expect(keyed.result.json.rows).toEqual([{ n: 2 }]);

    await setScanLimit(100);
    const whole = await askSql(`SELECT COUNT(*) AS n FROM "${h.table}"`);
    expect(whole.cards).toHaveLength(1);
    expect(whole.steps).toEqual(['running', 'waiting-approval', 'done']);
    expect(whole.result.json.rows).toEqual([{ n: 6 }]);
    expect(whole.itemsRead).toBe(6);
  });
});
