import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toSdkItem } from '../../../src/main/dynamo/marshal';
import type { AgentBudgets, AgentEvent, Item } from '../../../src/shared/ipc';
import { agentHarness } from '../../support/agent-harness';
import type { RecordedRequest } from '../../support/fake-bedrock';
import { createItemsTable } from '../../support/items-context';

// The items and read-capacity budgets hold over the whole question, across every tool and every
// read a tool makes, and capacity is what DynamoDB reports consumed (ReturnConsumedCapacity),
// whatever the estimate said.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;
let customers: string;
let orders: string;
let big: string;
let grown: string;

type ToolResult = { status?: string; content: { json?: Record<string, unknown> }[] };
const toolResults = (request: RecordedRequest | undefined): ToolResult[] => {
  const messages = (request?.body.messages ?? []) as { content: { toolResult?: ToolResult }[] }[];
  return (messages.at(-1)?.content ?? []).flatMap((b) => (b.toolResult ? [b.toolResult] : []));
};
const doneSteps = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.kind === 'step' && e.step.status === 'done' ? [e.step] : []));
const lastUsage = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.kind === 'usage' ? [e.usage] : [])).at(-1);
const budgets = (overrides: Partial<AgentBudgets>): AgentBudgets => ({
  modelCalls: 10,
  toolCalls: 10,
  tokens: 100_000,
  itemsRead: 1000,
  readCapacity: 1000,
  ...overrides,
});
/** About 10 KB: 1.5 RCU to read on its own, eventually consistent. */
const blob = { S: 'x'.repeat(10_000) };

async function putAll(table: string, items: Item[]): Promise<void> {
  for (const item of items)
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(item) }));
}

beforeAll(async () => {
  h = await agentHarness(inject('dynamoEndpoint'));
  // All made before the first SQL statement: SQL keeps the list of table names for ten minutes.
  customers = await createItemsTable(h.client, { prefix: 'agentbudc' });
  orders = await createItemsTable(h.client, { prefix: 'agentbudo' });
  big = await createItemsTable(h.client, { prefix: 'agentbudrcu' });
  grown = await createItemsTable(h.client, { prefix: 'agentbudsql', sortKey: true });
});
afterAll(async () => h.closeAll());

describe('the items budget is one budget for the whole question', () => {
  it('stops a run_sql JOIN whose two reads together pass what is left, and says so', async () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8];
    await putAll(
      customers,
      ids.map((i) => ({ pk: { S: `CUST#${i}` }, name: { S: `Customer ${i}` } })),
    );
    await putAll(
      orders,
      ids.map((i) => ({ pk: { S: `ORDER#${i}` }, customer: { S: `CUST#${i}` } })),
    );
    await h.configure('local', { allowedTables: [customers, orders], budgets: budgets({ itemsRead: 10 }) });
    const run = await h.ask({
      question: 'Who ordered what?',
      script: [
        { kind: 'tool', tools: [{ name: 'describe_table', input: { table: orders } }] },
        { kind: 'tool', tools: [{ name: 'scan', input: { table: orders, limit: 4 } }] },
        {
          kind: 'tool',
          tools: [
            {
              name: 'run_sql',
              input: {
                statement: `SELECT o.pk, c.name FROM "${orders}" o JOIN "${customers}" c ON c.pk = o.customer`,
              },
            },
          ],
        },
        { kind: 'text', text: 'Part of the orders.' },
      ],
    });
    expect(run.last.type).toBe('done');
    // Each of the two Scans alone fits in the 6 items left after the scan tool; together (16) they do not.
    const sql = toolResults(h.fake.requests.at(-1))[0]?.content[0]?.json ?? {};
    expect(sql.itemsRead).toBe(6);
    const sentence =
      'The items budget of this question (10 items) was reached: reading stopped after 6 items in this call (10 in all), so the result covers only part of the data.';
    expect(sql.budgetReached).toBe(sentence);
    const step = doneSteps(run.agentEvents).find((s) => s.tool === 'run_sql');
    expect(step?.summary).toContain(sentence);
    expect(lastUsage(run.agentEvents)?.itemsRead).toBe(10);
    expect(run.agentEvents).toContainEqual({
      kind: 'notice',
      message: 'Budget reached (10 items read); the agent is answering with what it has.',
    });
  });
});

describe('a budget-cut read still ends in an answer', () => {
  it('tells the model inside the tool result, in a turn Bedrock accepts, and gets the answer', async () => {
    const table = await createItemsTable(h.client, { prefix: 'agentbudscan' });
    await putAll(
      table,
      Array.from({ length: 12 }, (_, i) => ({ pk: { S: `ROW#${i}` }, n: { N: String(i) } })),
    );
    await h.configure('local', { allowedTables: [table], budgets: budgets({ itemsRead: 5 }) });
    const run = await h.ask({
      question: 'How many rows?',
      script: [
        { kind: 'tool', tools: [{ name: 'describe_table', input: { table } }] },
        { kind: 'tool', tools: [{ name: 'scan', input: { table, limit: 100 } }] },
        { kind: 'text', text: 'At least 5 rows; the budget stopped the count.' },
      ],
    });
    expect(run.last.type).toBe('done');
    expect(run.text).toBe('At least 5 rows; the budget stopped the count.');
    const lastTurn = ((h.fake.requests.at(-1)?.body.messages ?? []) as { content: object[] }[]).at(-1);
    // Tool results alone in their message; the notice travels inside the result's own content.
    expect(lastTurn?.content.every((block) => 'toolResult' in block)).toBe(true);
    const [scan] = toolResults(h.fake.requests.at(-1));
    expect(scan?.content[0]?.json?.count).toBe(5);
    expect(JSON.stringify(scan?.content)).toContain(
      'The budget of 5 items read for this question is reached. Answer now with what you have; do not call tools.',
    );
  });
});

describe('the read-capacity budget counts what DynamoDB reports', () => {
  it('stops a scan at the capacity DynamoDB reports, and the meter shows that figure', async () => {
    await putAll(
      big,
      Array.from({ length: 30 }, (_, i) => ({ pk: { S: `BIG#${i}` }, blob })),
    );
    await h.configure('local', { allowedTables: [big] });
    const first = await h.ask({
      question: 'What is in this table?',
      script: [
        { kind: 'tool', tools: [{ name: 'describe_table', input: { table: big } }] },
        { kind: 'text', text: 'Big items.' },
      ],
    });
    await h.configure('local', { allowedTables: [big], budgets: budgets({ readCapacity: 5 }) });
    const run = await h.ask({
      question: 'Read them all',
      conversationId: first.conversationId,
      script: [
        {
          kind: 'tool',
          tools: [
            { name: 'scan', input: { table: big, limit: 100 } },
            { name: 'get_item', input: { table: big, partitionKey: 'BIG#1' } },
          ],
        },
        { kind: 'text', text: 'Some of them.' },
      ],
    });
    expect(run.last.type).toBe('done');
    const [scan, getItem] = toolResults(h.fake.requests.at(-1));
    const read = scan?.content[0]?.json ?? {};
    // Pages are sized to what the budget can still pay for, so the scan stops well short of 30 items.
    expect(read.count).toBeGreaterThan(0);
    expect(read.count).toBeLessThan(30);
    const consumed = read.consumedReadCapacity as number;
    expect(consumed).toBeGreaterThanOrEqual(5);
    expect(consumed).toBeLessThanOrEqual(5 + 3);
    expect(read.budgetReached).toMatch(
      new RegExp(
        `^The read capacity budget of this question \\(5 RCU\\) was reached: reading stopped after ${String(read.count)} items in this call, DynamoDB reporting [\\d.]+ RCU consumed`,
      ),
    );
    expect(getItem?.content[0]?.json?.error).toBe(
      'Not run: the budget of 5 read capacity units for this question is reached.',
    );
    // The meter: every read's reported capacity, added up, including the last one before stopping.
    const steps = doneSteps(run.agentEvents);
    expect(steps).toHaveLength(1);
    expect(steps[0]?.consumedCapacity).toBe(consumed);
    expect(lastUsage(run.agentEvents)?.readCapacity).toBe(consumed);
  });

  it('stops run_sql at the capacity DynamoDB reports when its estimate said it would fit', async () => {
    const keys = ['P1', 'P2', 'P3'].flatMap((pk) => [1, 2, 3, 4, 5].map((sk) => ({ pk, sk })));
    await putAll(
      grown,
      keys.map(({ pk, sk }) => ({ pk: { S: pk }, sk: { N: String(sk) }, size: { S: 'small' } })),
    );
    await h.configure('local', { allowedTables: [grown] });
    // SQL learns the table's size here and keeps it for ten minutes (AWS refreshes DescribeTable's
    // figures only about every six hours); then the items grow, so the next estimate is far too low.
    // (A Query of another partition: a cached Scan would answer the next statement for free.)
    await h.ask({
      question: 'Is there a P0?',
      script: [
        {
          kind: 'tool',
          tools: [
            { name: 'run_sql', input: { statement: `SELECT COUNT(*) AS n FROM "${grown}" WHERE pk = 'P0'` } },
          ],
        },
        { kind: 'text', text: 'No.' },
      ],
    });
    await putAll(
      grown,
      keys.map(({ pk, sk }) => ({ pk: { S: pk }, sk: { N: String(sk) }, size: { S: 'big' }, blob })),
    );
    await h.configure('local', { allowedTables: [grown], budgets: budgets({ readCapacity: 5 }) });
    const run = await h.ask({
      question: 'List the three partitions',
      script: [
        {
          kind: 'tool',
          tools: [
            {
              name: 'run_sql',
              input: { statement: `SELECT pk, sk FROM "${grown}" WHERE pk IN ('P1', 'P2', 'P3')` },
            },
          ],
        },
        { kind: 'text', text: 'Part of them.' },
      ],
    });
    expect(run.last.type).toBe('done');
    const sql = toolResults(h.fake.requests.at(-1))[0]?.content[0]?.json ?? {};
    // One Query per partition, in turn: the first (5 items of 10 KB) already passes 5 RCU.
    expect(sql.itemsRead).toBe(5);
    const consumed = sql.consumedReadCapacity as number;
    expect(consumed).toBeGreaterThanOrEqual(5);
    expect(sql.budgetReached).toBe(
      `The read capacity budget of this question (5 RCU) was reached: reading stopped after 5 items in this call, DynamoDB reporting ${consumed.toFixed(1)} RCU consumed (${consumed.toFixed(1)} in all), so the result covers only part of the data.`,
    );
    expect(lastUsage(run.agentEvents)?.readCapacity).toBe(consumed);
    expect(run.agentEvents).toContainEqual({
      kind: 'notice',
      message: 'Budget reached (5 read capacity units); the agent is answering with what it has.',
    });
  });
});
