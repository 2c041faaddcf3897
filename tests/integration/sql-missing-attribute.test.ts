import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { allItems, get } from '../fixtures/sql-fixture';
import type { SqlSession, SessionConnection } from '../../src/main/sql/session';
import { createShopTable, recordingClient, sessionFor } from './sql-support';

// Issue #35: a misspelled attribute read as NULL on every row without a word; a misspelled table
// got a suggestion only when its first three letters matched. Real session, DynamoDB Local.
let client: DynamoDBClient;
let table: string;
let session: SqlSession;
let connection: SessionConnection;

beforeAll(async () => {
  ({ client } = recordingClient(inject('dynamoEndpoint')));
  table = await createShopTable(client, allItems);
  ({ session, connection } = sessionFor(client));
});
afterAll(() => client.destroy());

const run = (sql: string) =>
  session.run(connection, sql, [], { signal: new AbortController().signal, refresh: true });

describe('SQL names that no item holds', () => {
  it('says no item read has `amout` and offers `amount`, which the projected read did not bring back', async () => {
    const summary = await run(`SELECT PK, amout FROM ${table} WHERE PK = 'USER#u3'`);
    expect(summary.total).toBe(allItems.filter((i) => get(i, 'PK') === 'USER#u3').length);
    expect(summary.warnings).toContain(
      `No item read from ${table} has \`amout\`; did you mean \`amount\`? It reads as missing (NULL) on every row.`,
    );
  });

  it('says nothing about a name some item holds, even when most items lack it', async () => {
    const summary = await run(`SELECT PK, amount FROM ${table}`);
    expect(summary.warnings.filter((w) => w.includes('No item read'))).toEqual([]);
  });

  it('says a name far from every attribute is missing, without a guess', async () => {
    const summary = await run(`SELECT PK, zzqqxx FROM ${table} WHERE PK = 'USER#u3'`);
    expect(summary.warnings).toContain(
      `No item read from ${table} has \`zzqqxx\`. It reads as missing (NULL) on every row.`,
    );
  });

  it('suggests the table for a name with a swapped pair of letters', async () => {
    const misspelled = `${table.slice(0, 1)}${table.slice(2, 3)}${table.slice(1, 2)}${table.slice(3)}`;
    const failure = await run(`SELECT * FROM "${misspelled}"`).then(
      () => new Error('ran'),
      (error: unknown) => error as Error,
    );
    expect(failure.message).toContain(`did you mean ${table}?`);
  });
});
