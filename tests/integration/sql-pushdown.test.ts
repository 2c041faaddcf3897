import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { allItems, get, orders, users } from '../fixtures/sql-fixture';
import type { SqlSession, SessionConnection } from '../../src/main/sql/session';
import { createShopTable, reads, type RecordedCall, recordingClient, sessionFor } from './sql-support';

let client: DynamoDBClient;
let calls: RecordedCall[];
let table: string;
let session: SqlSession;
let connection: SessionConnection;

beforeAll(async () => {
  ({ client, calls } = recordingClient(inject('dynamoEndpoint')));
  table = await createShopTable(client, allItems);
  ({ session, connection } = sessionFor(client));
});
afterAll(() => client.destroy());

async function run(sql: string, options: { refresh?: boolean; maxItems?: number } = {}) {
  calls.length = 0;
  const summary = await session.run(connection, sql, [], {
    signal: new AbortController().signal,
    refresh: options.refresh ?? true,
    maxItems: options.maxItems,
  });
  const window = session.results.window(summary.resultId, 0, 1000);
  return {
    summary,
    rows: window.rows,
    calls: reads(calls),
    inputs: calls.filter((c) => reads([c]).length > 0),
  };
}

describe('SQL pushdown against DynamoDB Local', () => {
  it('a partition-key equality is a Query, never a Scan', async () => {
    const {
      rows,
      calls: made,
      inputs,
    } = await run(`SELECT SK FROM ${table} WHERE PK = 'USER#u3' ORDER BY SK`);
    expect(made).toEqual(['QueryCommand']);
    expect(inputs[0]!.input).toMatchObject({
      KeyConditionExpression: '#n0 = :v0',
      ExpressionAttributeNames: { '#n0': 'PK' },
    });
    const expected = allItems
      .filter((i) => get(i, 'PK') === 'USER#u3')
      .map((i) => get(i, 'SK') as string)
      .sort();
    expect(rows.map((r) => (r[0] as { S: string }).S)).toEqual(expected);
  });

  it('the full primary key is a GetItem; several keys a BatchGetItem', async () => {
    const one = await run(`SELECT orderId FROM ${table} WHERE PK = 'USER#u2' AND SK = 'ORDER#o001'`);
    expect(one.calls).toEqual(['GetItemCommand']);
    expect(one.rows).toEqual([[{ S: 'o1' }]]);
    const many = await run(
      `SELECT userId FROM ${table} WHERE PK IN ('USER#u1', 'USER#u2', 'USER#u99') AND SK IN ('USER#u1', 'USER#u2') ORDER BY userId`,
    );
    expect(many.calls).toEqual(['BatchGetItemCommand']);
    expect(many.rows).toEqual([[{ S: 'u1' }], [{ S: 'u2' }]]);
  });

  it('sort-key ranges become the key condition; other conditions a filter with placeholders', async () => {
    const {
      calls: made,
      inputs,
      rows,
    } = await run(
      `SELECT orderId FROM ${table} WHERE PK = 'USER#u3' AND SK BETWEEN 'ORDER#o000' AND 'ORDER#o030' AND status = 'PAID'`,
    );
    expect(made).toEqual(['QueryCommand']);
    const input = inputs[0]!.input;
    expect(input.KeyConditionExpression).toBe('#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2');
    expect(input.FilterExpression).toBe('#n2 = :v3');
    expect(input.ExpressionAttributeNames).toMatchObject({ '#n2': 'status' });
    const expected = orders
      .filter(
        (o) =>
          get(o, 'PK') === 'USER#u3' &&
          (get(o, 'SK') as string) <= 'ORDER#o030' &&
          get(o, 'status') === 'PAID',
      )
      .map((o) => get(o, 'orderId'));
    expect(rows.map((r) => (r[0] as { S: string }).S).sort()).toEqual((expected as string[]).sort());
  });

  it('an equality on an index partition key is a Query on that index', async () => {
    const {
      calls: made,
      inputs,
      rows,
    } = await run(`SELECT orderId FROM ${table} WHERE GSI1PK = 'STATUS#SHIPPED'`);
    expect(made).toEqual(['QueryCommand']);
    expect(inputs[0]!.input).toMatchObject({ IndexName: 'GSI1' });
    expect(rows).toHaveLength(orders.filter((o) => get(o, 'GSI1PK') === 'STATUS#SHIPPED').length);
  });

  it('other conditions become a Scan FilterExpression, and only the needed attributes are fetched', async () => {
    const {
      calls: made,
      inputs,
      rows,
    } = await run(`SELECT orderId, amount FROM ${table} WHERE amount > 50 AND status IN ('PAID', 'NEW')`);
    expect(new Set(made)).toEqual(new Set(['ScanCommand']));
    const input = inputs[0]!.input;
    expect(input.FilterExpression).toBe('(#n0 > :v0) AND (#n1 IN (:v1, :v2))');
    expect(Object.values(input.ExpressionAttributeNames as Record<string, string>).sort()).toEqual([
      'PK',
      'SK',
      'amount',
      'orderId',
      'status',
    ]);
    expect(input.ProjectionExpression).toBeDefined();
    const expected = orders.filter(
      (o) =>
        o.amount &&
        'N' in o.amount &&
        Number(o.amount.N) > 50 &&
        ['PAID', 'NEW'].includes(get(o, 'status') as string),
    );
    expect(rows).toHaveLength(expected.length);
  });

  it('two entity views of one table share one Scan for a JOIN', async () => {
    const sql = `SELECT u.name, COUNT(*) AS n FROM ${table}.orders o JOIN ${table}.users u ON o.userId = u.userId GROUP BY u.name`;
    const { inputs } = await run(sql);
    // (The catalog's one-page sample Scan, Limit 100, finds the views; it is not the data read.)
    const dataScans = inputs.filter((c) => c.command === 'ScanCommand' && c.input.Limit === undefined);
    expect(dataScans).toHaveLength(1);
    expect(dataScans[0]!.input.FilterExpression).toMatch(
      /^\(begins_with\(#n\d, :v\d\)\) OR \(begins_with\(#n\d, :v\d\)\)$/,
    );
  });

  it('an equality carried across a join turns both sides into Queries', async () => {
    const { calls: made, rows } = await run(
      `SELECT o.orderId FROM ${table} o JOIN ${table} u ON o.PK = u.PK WHERE u.PK = 'USER#u4' AND u.SK = 'USER#u4' AND o.SK LIKE 'ORDER#%'`,
    );
    expect(made.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    expect(rows).toHaveLength(orders.filter((o) => get(o, 'PK') === 'USER#u4').length);
  });

  it('IS NULL on the optional side of a LEFT JOIN is not pushed into its fetch', async () => {
    const { rows, inputs } = await run(
      `SELECT o.orderId FROM ${table}.orders o LEFT JOIN ${table}.users u ON o.userId = u.userId WHERE u.userId IS NULL`,
    );
    for (const call of inputs) expect(JSON.stringify(call.input)).not.toMatch(/attribute_not_exists/);
    const known = new Set(users.map((u) => get(u, 'userId')));
    expect(rows).toHaveLength(orders.filter((o) => !known.has(get(o, 'userId'))).length);
  });

  it('caches fetched data per connection and refetches on refresh', async () => {
    const sql = `SELECT COUNT(*) FROM ${table} WHERE GSI1PK = 'STATUS#PAID'`;
    await run(sql, { refresh: true });
    const again = await run(sql, { refresh: false });
    expect(again.calls).toEqual([]);
    expect(again.summary.fetches[0]).toMatchObject({ cached: true });
    const plan = await session.plan(connection, sql, [], new AbortController().signal);
    expect(plan.fetches[0]!.cached).toBeDefined();
    expect(plan.totals.calls).toBe(0);
    const refreshed = await run(sql, { refresh: true });
    expect(refreshed.calls).toEqual(['QueryCommand']);
  });

  it('stops at the read bound and says the result is partial', async () => {
    const { summary } = await run(`SELECT COUNT(*) FROM ${table}`, { maxItems: 10 });
    expect(summary.fetches[0]).toMatchObject({ items: 10, truncated: true });
    expect(summary.warnings.join(' ')).toMatch(/Stopped reading .* after 10 items/);
    const window = session.results.window(summary.resultId, 0, 1);
    expect(window.rows[0]).toEqual([{ N: '10' }]);
  });

  it('shows the plan before running: calls, estimates and reasons', async () => {
    const plan = await session.plan(
      connection,
      `SELECT * FROM ${table}.orders o JOIN ${table}.users u ON o.userId = u.userId WHERE u.userId = 'u1'`,
      [],
      new AbortController().signal,
    );
    expect(plan.fetches.map((f) => f.call.operation).sort()).toEqual(
      ['Scan', 'Scan'].slice(0, plan.fetches.length).sort(),
    );
    for (const fetch of plan.fetches) {
      expect(fetch.estimate.rcu).toBeGreaterThan(0);
      expect(fetch.reason.length).toBeGreaterThan(10);
    }
    const point = await session.plan(
      connection,
      `SELECT * FROM ${table} WHERE PK = 'USER#u1'`,
      [],
      new AbortController().signal,
    );
    expect(point.fetches[0]!.call).toMatchObject({ operation: 'Query', keyCondition: "PK = 'USER#u1'" });
  });

  it('a user-defined view with an index key condition reads with a Query on that index', async () => {
    calls.length = 0;
    const view = {
      name: 'paid_orders',
      table,
      index: 'GSI1',
      conditions: [{ attribute: 'GSI1PK', op: '=' as const, values: [{ S: 'STATUS#PAID' }] }],
      source: 'user' as const,
    };
    const summary = await session.run(connection, 'SELECT COUNT(*) FROM paid_orders', [view], {
      signal: new AbortController().signal,
      refresh: true,
    });
    const made = calls.filter((c) => reads([c]).length > 0);
    expect(made.map((c) => [c.command, c.input.IndexName])).toEqual([['QueryCommand', 'GSI1']]);
    const count = session.results.window(summary.resultId, 0, 1).rows[0]![0];
    expect(count).toEqual({ N: String(orders.filter((o) => get(o, 'GSI1PK') === 'STATUS#PAID').length) });
  });

  it('detects entity views from key prefixes', async () => {
    // The shared DynamoDB Local holds hundreds of tables; autocomplete samples the ones used first.
    await run(`SELECT COUNT(*) FROM ${table}`);
    const catalog = await session.catalog(connection, [], new AbortController().signal);
    const mine = catalog.views
      .filter((v) => v.table === table)
      .map((v) => v.name)
      .sort();
    expect(mine).toEqual(['orders', 'payments', 'users']);
  });

  it('cancel stops a running fetch', async () => {
    const controller = new AbortController();
    const running = session.run(connection, `SELECT * FROM ${table}`, [], {
      signal: controller.signal,
      refresh: true,
      onProgress: () => controller.abort(),
    });
    controller.abort();
    await expect(running).rejects.toThrow();
  });
});
