import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Item } from '../../../src/shared/ipc';
import { agentHarness, describeTableTurn, lastToolResult } from '../../support/agent-harness';
import { createItemsTable } from '../../support/items-context';

// "Which customers ordered more than 3 times last week and have an unpaid balance?" answered
// the way the issue describes: find the table, aggregate with run_sql (the SQL workbench's own
// planner and engine against DynamoDB Local), and hand the model the right numbers.

type Harness = Awaited<ReturnType<typeof agentHarness>>;
let h: Harness;
let shop: string;

interface Order {
  customer: number;
  cents: number;
  placedAt: string;
}
const customers = [1, 2, 3, 4, 5, 6].map((c) => ({
  c,
  name: `Customer ${c}`,
  balanceCents: c % 3 === 0 ? 0 : c * 1010 + 5,
}));
const orders: Order[] = customers.flatMap(({ c }) => [
  // c orders in the week of 2024-03-04, and two the week before (which must not count).
  ...Array.from({ length: c }, (_, k) => ({
    customer: c,
    cents: 10 + 7 * k + 101 * c,
    placedAt: `2024-03-0${4 + (k % 5)}T10:0${k}:00Z`,
  })),
  { customer: c, cents: 999, placedAt: '2024-02-27T09:00:00Z' },
  { customer: c, cents: 1, placedAt: '2024-03-03T23:59:59Z' },
]);
const decimal = (cents: number): string =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The answer, computed here from the test's own data with integer cents: no SQL involved. */
function expectedRows() {
  return customers
    .map(({ c, name, balanceCents }) => {
      const week = orders.filter(
        (o) => o.customer === c && o.placedAt >= '2024-03-04' && o.placedAt < '2024-03-11',
      );
      return {
        customer: `CUST#${c}`,
        name,
        orders: week.length,
        spent: Number(decimal(week.reduce((s, o) => s + o.cents, 0))),
        balance: Number(decimal(balanceCents)),
      };
    })
    .filter((row) => row.orders > 3 && row.balance > 0);
}

const statement = (
  table: string,
): string => `SELECT o.customer, c.name, COUNT(*) AS orders, SUM(o.total) AS spent, c.balance
FROM "${table}" o JOIN "${table}" c ON c.pk = o.customer
WHERE o.entity = 'Order' AND o.placedAt >= '2024-03-04' AND o.placedAt < '2024-03-11' AND c.balance > 0
GROUP BY o.customer, c.name, c.balance
HAVING COUNT(*) > 3
ORDER BY o.customer`;

beforeAll(async () => {
  h = await agentHarness(inject('dynamoEndpoint'));
  shop = await createItemsTable(h.client, { prefix: 'agentsql' });
  const items: Item[] = [
    ...customers.map(({ c, name, balanceCents }) => ({
      pk: { S: `CUST#${c}` },
      entity: { S: 'Customer' },
      name: { S: name },
      balance: { N: decimal(balanceCents) },
    })),
    ...orders.map((o, n) => ({
      pk: { S: `ORDER#${n + 1}` },
      entity: { S: 'Order' },
      customer: { S: `CUST#${o.customer}` },
      total: { N: decimal(o.cents) },
      placedAt: { S: o.placedAt },
    })),
  ];
  for (const item of items) await h.put(item, shop);
  await h.configure('local', { allowedTables: [shop] });
});
afterAll(async () => h.closeAll());

describe('run_sql answers from the right numbers', () => {
  it('aggregates through the SQL engine, counts its reads against the budget and stores the result', async () => {
    const expected = expectedRows();
    expect(expected.map((r) => r.customer)).toEqual(['CUST#4', 'CUST#5']);
    const run = await h.ask({
      question: 'Which customers ordered more than 3 times last week and have an unpaid balance?',
      script: [
        { kind: 'tool', text: 'Let me look at the tables.', tools: [{ name: 'list_tables', input: {} }] },
        describeTableTurn(shop),
        { kind: 'tool', tools: [{ name: 'run_sql', input: { statement: statement(shop) } }] },
        { kind: 'text', text: 'Customers 4 and 5.' },
      ],
    });
    expect(run.last.type).toBe('done');
    const offered = (
      h.fake.requests.at(-1)?.body.toolConfig as { tools: { toolSpec: { name: string } }[] }
    ).tools.map((t) => t.toolSpec.name);
    expect(offered).toContain('run_sql');

    const { status, json } = lastToolResult(h.fake.requests.at(-1));
    expect(status).toBe('success');
    expect(json.columns).toEqual(['customer', 'name', 'orders', 'spent', 'balance']);
    expect(json.rows).toEqual(expected);
    expect(json.rowCount).toBe(2);
    expect(json.itemsRead).toBeGreaterThan(0);

    const step = run.agentEvents.flatMap((e) =>
      e.kind === 'step' && e.step.tool === 'run_sql' && e.step.status === 'done' ? [e.step] : [],
    )[0];
    expect(step?.summary).toMatch(/^2 rows · \d+ items read$/);
    const usage = run.agentEvents.filter((e) => e.kind === 'usage').at(-1);
    // describe_table samples the table without counting items; everything counted came from SQL.
    expect(usage?.kind === 'usage' && usage.usage.itemsRead).toBe(json.itemsRead);
    expect(usage?.kind === 'usage' && usage.usage.readCapacity).toBeGreaterThan(0);
    const stored = await h.call<{ total: number; rows: Item[] }>('resultsets:window', {
      resultSetId: step?.resultSetId,
      offset: 0,
      limit: 10,
    });
    expect(stored.ok && stored.value.total).toBe(2);
    expect(stored.ok && stored.value.rows[1]).toMatchObject({
      customer: { S: 'CUST#5' },
      orders: { N: '5' },
    });
  });

  it('reads again from the cache, at no cost to the next question', async () => {
    const run = await h.ask({
      question: 'And again?',
      script: [
        { kind: 'tool', tools: [{ name: 'run_sql', input: { statement: statement(shop) } }] },
        { kind: 'text', text: 'Same two.' },
      ],
    });
    const { json } = lastToolResult(h.fake.requests.at(-1));
    expect(json.rows).toEqual(expectedRows());
    expect(json.itemsRead).toBe(0);
    const step = run.agentEvents.flatMap((e) =>
      e.kind === 'step' && e.step.status === 'done' ? [e.step] : [],
    )[0];
    expect(step?.summary).toBe('2 rows · from cached reads');
  });

  it('bounds each read by what is left of the items budget and says the answer is partial', async () => {
    await h.configure('local', {
      allowedTables: [shop],
      budgets: { modelCalls: 10, toolCalls: 10, tokens: 100_000, itemsRead: 5, readCapacity: 100 },
    });
    try {
      await h.ask({
        question: 'Total of all orders?',
        script: [
          {
            kind: 'tool',
            tools: [
              {
                name: 'run_sql',
                input: {
                  statement: `SELECT SUM(total) AS total FROM "${shop}" WHERE placedAt < '2024-03-04'`,
                },
              },
            ],
          },
          { kind: 'text', text: 'Partial total.' },
        ],
      });
    } finally {
      await h.configure('local', { allowedTables: [shop] });
    }
    const { json } = lastToolResult(h.fake.requests.at(-1));
    expect(json.itemsRead).toBe(5);
    expect(JSON.stringify(json.warnings)).toContain('after 5 items');
  });

  it('runs only SELECT, and only over the tables the agent may use', async () => {
    await h.ask({
      question: 'Clean up',
      script: [
        {
          kind: 'tool',
          tools: [
            {
              name: 'run_sql',
              input: { statement: `/* tidy */ DELETE FROM "${shop}" WHERE entity = 'Order'` },
            },
            { name: 'run_sql', input: { statement: `SELECT COUNT(*) FROM "${h.table}"` } },
          ],
        },
        { kind: 'text', text: 'I cannot.' },
      ],
    });
    const messages = (h.fake.requests.at(-1)?.body.messages ?? []) as {
      content: { toolResult?: { status: string; content: { json: { error: string; code: string } }[] } }[];
    }[];
    const results = (messages.at(-1)?.content ?? []).flatMap((b) => (b.toolResult ? [b.toolResult] : []));
    expect(results.map((r) => r.status)).toEqual(['error', 'error']);
    expect(results[0]?.content[0]?.json.code).toBe('SqlReadOnly');
    expect(results[1]?.content[0]?.json).toMatchObject({
      code: 'TableNotAllowed',
      error: expect.stringContaining(h.table) as unknown,
    });
    expect(await h.get('ORDER#1', shop)).toBeDefined();
  });
});
