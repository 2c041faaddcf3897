import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type SqlAssistResult, sqlAssistResultSchema } from '../../../src/shared/ipc/sql-assist';
import { agentHarness } from '../../support/agent-harness';
import { startKeyProxy, type KeyProxy } from '../../support/key-proxy';
import type { ScriptedTurn } from '../../support/fake-bedrock';

// Ask / Fix / Explain against the local Bedrock (real SDK, real wire protocol) and a real
// DynamoDB Local table: what is sent, what comes back, and that a proposal is planned, not run.
// A database of its own on the shared DynamoDB Local: Ask grounds the model in the first tables of
// the connection, and among other files' tables (e.g. the Athena differential's `adiff_*`) those
// came first.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;
let own: KeyProxy;
const SECRET_VALUE = 'zebra-unique-name-7f3a';

beforeAll(async () => {
  own = await startKeyProxy(inject('dynamoEndpoint'));
  h = await agentHarness(own.endpoint);
  await h.configure('local');
  await h.put({
    pk: { S: 'CUST#1' },
    entity: { S: 'Customer' },
    name: { S: SECRET_VALUE },
    balance: { N: '12.5' },
  });
  await h.put({ pk: { S: 'CUST#2' }, entity: { S: 'Customer' }, name: { S: 'Ada' }, balance: { N: '0' } });
  // Attribute names are data: the catalog text lists these like any other name.
  await h.put({ pk: { S: 'CUST#3' }, constructor: { S: 'x' }, toString: { N: '1' } });
});
afterAll(async () => {
  await h.closeAll();
  await own.close();
});

let counter = 0;
async function assist(input: Record<string, unknown>, script: ScriptedTurn[]): Promise<SqlAssistResult> {
  h.fake.script = script;
  h.fake.requests.length = 0;
  counter += 1;
  const requestId = `assist-req-${counter}-${Date.now()}`;
  const finished = h.waitFor(requestId);
  const started = await h.call('sql:assist', {
    connectionId: 'local',
    requestId,
    includeSamples: false,
    ...input,
  });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await finished;
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return sqlAssistResultSchema.parse(last.value);
}

/** Every text block of the user messages of a recorded Converse request. */
function userText(index: number): string {
  const body = h.fake.requests[index]?.body as { messages: { role: string; content: { text?: string }[] }[] };
  return body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content.map((c) => c.text ?? ''))
    .join('\n');
}

const sql = (statement: string): ScriptedTurn => ({
  kind: 'text',
  text: `\`\`\`sql\n${statement}\n\`\`\`\nThis counts them.`,
});

describe('Ask', () => {
  it('grounds the model in names and types, sends an invented table back once, and proposes a planned statement', async () => {
    const good = `SELECT COUNT(*) AS n FROM "${h.table}" WHERE balance > 0`;
    const result = await assist({ task: 'ask', question: 'How many customers owe money?' }, [
      sql('SELECT COUNT(*) AS n FROM customers_table WHERE balance > 0'),
      sql(good),
    ]);
    expect(h.fake.requests).toHaveLength(2);
    const first = userText(0);
    expect(first).toContain(`table "${h.table}": partition key pk (S)`);
    expect(first).toMatch(/balance \(N\)/);
    expect(first).toContain('constructor (S), in 33% of items');
    expect(first).toContain('toString (N), in 33% of items');
    // Types and presence come from the Schema view's sample of the table, not a separate read.
    expect(first).toContain('attributes (a sample of 3 items):');
    expect(first).toContain('name (S), in 67% of items');
    expect(first).toContain('How many customers owe money?');
    expect(first).not.toContain(SECRET_VALUE);
    expect(result.retried).toMatch(/customers_table/);
    expect(userText(1)).toContain(result.retried);
    expect(result.statement).toBe(good);
    expect(result.plan?.fetches[0]?.call.operation).toBe('Scan');
    expect(result.planError).toBeUndefined();
    expect(result.sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40 });
    // claude-3-5-sonnet: $3 / $15 per million tokens.
    expect(result.costUsd).toBeCloseTo((200 * 3 + 40 * 15) / 1_000_000, 10);
  });

  it('sends sample values only when the user turned them on', async () => {
    await assist({ task: 'ask', question: 'Names?', includeSamples: true }, [
      sql(`SELECT name FROM "${h.table}"`),
    ]);
    expect(userText(0)).toContain(SECRET_VALUE);
  });

  it("grounds the model in the Schema tab's newest saved read of the table when there is one", async () => {
    const requestId = `assist-schema-${Date.now()}`;
    const finished = h.waitFor(requestId);
    const started = await h.call('schema:analyze', {
      connectionId: 'local',
      table: h.table,
      requestId,
      mode: 'full',
    });
    if (!started.ok) throw new Error(started.error.message);
    expect((await finished).last.type).toBe('done');
    await assist({ task: 'ask', question: 'Balances?' }, [sql(`SELECT balance FROM "${h.table}"`)]);
    const text = userText(0);
    expect(text).toContain('attributes (all 3 items):');
    expect(text).toContain('balance (N), in 67% of items');
  });

  it('says so when the model still invents a name after the retry', async () => {
    const result = await assist({ task: 'ask', question: 'Orders?' }, [
      sql('SELECT * FROM orders_v1'),
      sql('SELECT * FROM orders_v2'),
    ]);
    expect(result.statement).toBe('SELECT * FROM orders_v2');
    expect(result.plan).toBeUndefined();
    expect(result.planError).toMatch(/orders_v2/);
  });
});

describe('Fix and Explain', () => {
  it('Fix sends the failed statement with its error and proposes the correction', async () => {
    const fixed = `SELECT name FROM "${h.table}" WHERE pk = 'CUST#1'`;
    const result = await assist(
      {
        task: 'fix',
        statement: `SELEC name FROM "${h.table}"`,
        error: 'Expected SELECT at line 1, column 1.',
      },
      [sql(fixed)],
    );
    expect(userText(0)).toContain('Expected SELECT at line 1, column 1.');
    expect(result.statement).toBe(fixed);
    expect(result.plan?.fetches[0]?.call.operation).toBe('GetItem');
  });

  it('Explain sends the plan and returns the words', async () => {
    const result = await assist({ task: 'explain', statement: `SELECT * FROM "${h.table}"` }, [
      { kind: 'text', text: 'This scans the whole table once.' },
    ]);
    expect(userText(0)).toContain('"operation":"Scan"');
    expect(result.explanation).toBe('This scans the whole table once.');
    expect(result.statement).toBeUndefined();
  });

  it('stops at Cancel while the model is still answering, proposing nothing', async () => {
    h.fake.script = [{ kind: 'hang', text: 'SELECT' }];
    h.fake.requests.length = 0;
    const requestId = `assist-cancel-${Date.now()}`;
    const finished = h.waitFor(requestId);
    const started = await h.call('sql:assist', {
      connectionId: 'local',
      requestId,
      task: 'ask',
      question: 'How many customers are there?',
      includeSamples: false,
    });
    expect(started.ok).toBe(true);
    // The question has reached the model, which has not answered yet.
    await expect.poll(() => h.fake.requests.length, { timeout: 30_000 }).toBe(1);
    const cancelled = await h.call('ops:cancel', { requestId });
    expect(cancelled).toMatchObject({ ok: true, value: { cancelled: true } });
    const { events, last } = await finished;
    expect(last.type).toBe('cancelled');
    expect(events.filter((e) => e.type === 'done' || e.type === 'error')).toHaveLength(0);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('ends in the AWS error with a sentence that says what to do when Bedrock refuses', async () => {
    h.fake.script = [
      {
        kind: 'http-error',
        status: 403,
        type: 'AccessDeniedException',
        message: "You don't have access to the model with the specified model ID.",
      },
    ];
    h.fake.requests.length = 0;
    const requestId = `assist-denied-${Date.now()}`;
    const finished = h.waitFor(requestId);
    await h.call('sql:assist', {
      connectionId: 'local',
      requestId,
      task: 'fix',
      statement: 'SELEC * FROM customers',
      error: 'Expected SELECT at line 1, column 1.',
      includeSamples: false,
    });
    const { last } = await finished;
    if (last.type !== 'error') throw new Error(`ended with ${last.type}`);
    expect(last.error.code).toBe('AccessDeniedException');
    expect(last.error.message).toMatch(/Bedrock refused .* enable access to this model/);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('refuses an empty question with a sentence, asking nothing', async () => {
    h.fake.requests.length = 0;
    const requestId = `assist-empty-${Date.now()}`;
    const finished = h.waitFor(requestId);
    await h.call('sql:assist', {
      connectionId: 'local',
      requestId,
      task: 'ask',
      question: '  ',
      includeSamples: false,
    });
    const { last } = await finished;
    expect(last.type === 'error' ? last.error.message : last.type).toBe(
      'Type a question first: what do you want to know?',
    );
    expect(h.fake.requests).toHaveLength(0);
  });
});
