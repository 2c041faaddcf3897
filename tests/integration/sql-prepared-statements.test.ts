import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { SqlSession, type SessionConnection } from '../../src/main/sql/session';
import { comparable, duckdbWith, duckRows } from '../support/duckdb-oracle';
import { putItems } from '../support/dynamo-tables';
import { createShopTable, reads, type RecordedCall, recordingClient } from './sql-support';

/**
 * The session's plan cache (prepared-statements.ts) against DynamoDB Local: one statement text
 * run again after the table got new items and a new attribute, under another view, on another
 * connection; every answer is DuckDB's over the items the table holds at that moment.
 */
let client: DynamoDBClient;
let calls: RecordedCall[];
let table: string;
const duck: DuckDBConnection[] = [];

const users = (from: number, to: number): Item[] =>
  Array.from({ length: to - from }, (_, k) => {
    const u = from + k;
    return {
      PK: { S: `USER#u${u}` },
      SK: { S: `USER#u${u}` },
      userId: { S: `u${u}` },
      name: { S: `n${u % 4}` },
    };
  });
const orders = (from: number, to: number, extra?: string): Item[] =>
  Array.from({ length: to - from }, (_, k) => {
    const o = from + k;
    const item: Item = {
      PK: { S: `USER#u${o % 9}` },
      SK: { S: `${o % 4 === 0 ? 'RETURN' : 'ORDER'}#o${String(o).padStart(3, '0')}` },
      userId: { S: `u${o % 9}` },
      amount: { N: String((o * 37) % 500) },
    };
    if (extra) item[extra] = { S: `v${o}` };
    return item;
  });
let held: Item[] = [...users(0, 9), ...orders(0, 60)];

beforeAll(async () => {
  ({ client, calls } = recordingClient(inject('dynamoEndpoint')));
  table = await createShopTable(client, held, 'prepared');
});
afterAll(() => {
  for (const c of duck) c.closeSync();
  client.destroy();
});

const views = (orderPrefix: string): EntityView[] =>
  ['users', 'orders'].map((name) => ({
    name,
    table,
    conditions: [
      { attribute: 'SK', op: 'begins_with', values: [{ S: name === 'users' ? 'USER#' : orderPrefix }] },
    ],
    source: 'user',
  }));

const JOIN =
  'SELECT u.name, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name';

async function expected(orderPrefix: string): Promise<unknown[][]> {
  const connection = await duckdbWith([
    {
      name: 'App',
      columns: { SK: 'VARCHAR', userId: 'VARCHAR', name: 'VARCHAR', amount: 'DECIMAL(38,4)' },
      items: held,
    },
  ]);
  duck.push(connection);
  return sorted(
    await duckRows(
      connection,
      `SELECT u.name, COUNT(*), SUM(o.amount) FROM App o JOIN App u ON o.userId = u.userId WHERE starts_with(o.SK, '${orderPrefix}') AND starts_with(u.SK, 'USER#') GROUP BY u.name`,
    ),
  );
}

const sorted = (rows: unknown[][]): unknown[][] =>
  rows.map((row) => row.map(comparable)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** A result window's tagged value as DuckDB's row holds it. */
function plain(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  const [tag, value] = Object.entries(v as Record<string, unknown>)[0]!;
  return tag === 'N' ? Number(value) : tag === 'NULL' ? null : value;
}

async function run(session: SqlSession, connection: SessionConnection, sql: string, orderPrefix: string) {
  calls.length = 0;
  const summary = await session.run(connection, sql, views(orderPrefix), {
    signal: new AbortController().signal,
  });
  const { rows } = session.results.window(summary.resultId, 0, 1000);
  return { summary, rows: sorted(rows.map((r) => r.map(plain))), reads: reads(calls) };
}

describe('the SQL session runs a statement again', () => {
  it('after new items and a new attribute, under another view and on another connection', async () => {
    const session = new SqlSession();
    const connection: SessionConnection = { id: 'a', client: () => Promise.resolve(client) };
    const first = await run(session, connection, JOIN, 'ORDER#');
    expect(first.rows).toEqual(await expected('ORDER#'));
    expect(first.reads).toEqual(['ScanCommand']);

    // Run again: from the fetch cache, the same answer; the plan says so (planned per run).
    const again = await run(session, connection, JOIN, 'ORDER#');
    expect(again.reads).toEqual([]);
    expect(again.rows).toEqual(first.rows);
    const plan = await session.plan(connection, JOIN, views('ORDER#'), new AbortController().signal);
    expect(plan.fetches.map((f) => f.cached !== undefined)).toEqual([true]);

    // New items, one with an attribute no item had: the table is read again once told.
    const added = [...users(9, 12), ...orders(60, 90, 'constructor')];
    await putItems(
      client,
      table,
      added.map((item) => toSdkItem(item)),
    );
    held = [...held, ...added];
    session.tableChanged(connection.id, table);
    const after = await run(session, connection, JOIN, 'ORDER#');
    expect(after.reads).toEqual(['ScanCommand']);
    expect(after.rows).toEqual(await expected('ORDER#'));
    expect(after.rows).not.toEqual(first.rows);
    const star = await session.run(
      connection,
      `SELECT * FROM orders WHERE PK = 'USER#u1' AND SK = 'ORDER#o082'`,
      views('ORDER#'),
      { signal: new AbortController().signal },
    );
    expect(star.columns).toContain('constructor');

    // The user's view `orders` now means returns.
    const returns = await run(session, connection, JOIN, 'RETURN#');
    expect(returns.rows).toEqual(await expected('RETURN#'));
    expect(returns.rows).not.toEqual(after.rows);

    // Another connection to the same endpoint, the same text: its own answer.
    const other: SessionConnection = { id: 'b', client: () => Promise.resolve(client) };
    const elsewhere = await run(session, other, JOIN, 'ORDER#');
    expect(elsewhere.rows).toEqual(await expected('ORDER#'));
  });
});
