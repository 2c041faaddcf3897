import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { fromTagged } from '../../src/main/sql/values/value';
import { uniqueTableName } from '../support/dynamo-local';
import { createMultiKeyTable, MULTI_INDEX } from '../support/multi-key-table';
import { renderDyno } from '../support/sql-diff/oracle';
import { reads, recordingClient, sessionFor, type RecordedCall } from './sql-support';

let client: DynamoDBClient;
let calls: RecordedCall[];
let table: string;

beforeAll(async () => {
  const endpoint = inject('dynamoEndpoint');
  ({ client, calls } = recordingClient(endpoint));
  // As the app's client factory does: `__proto__` stays an attribute name (aws/proto-names.ts).
  keepProtoNames(client);
  table = uniqueTableName('sql_multikey');
  await createMultiKeyTable(endpoint, table);
});
afterAll(() => client.destroy());

async function rows(sql: string, pushdown: boolean): Promise<string[]> {
  const { session, connection } = sessionFor(client, `multikey-${pushdown}`);
  const summary = await session.run(connection, sql, [], {
    signal: new AbortController().signal,
    refresh: true,
    pushdown,
  });
  return session.results
    .window(summary.resultId, 0, 100_000)
    .rows.map((row) => row.map((v) => renderDyno(v === null ? null : fromTagged(v), false)).join(' | '))
    .sort();
}

async function plan(sql: string) {
  const { session, connection } = sessionFor(client, 'multikey-plan');
  return session.plan(connection, sql, [], new AbortController().signal);
}

describe('SQL on a table with a 2 + 2 multi-attribute GSI', () => {
  it('turns = on every partition attribute and a sort prefix into a Query on the index, same rows as a Scan', async () => {
    const statements = [
      `SELECT id, seq, "__proto__" FROM ${table} WHERE tenant = 't1' AND "reg.ion" = 'eu'`,
      `SELECT id, seq FROM ${table} WHERE tenant = 't1' AND "reg.ion" = 'eu' AND "#day" = 'd2'`,
      `SELECT id, seq FROM ${table} WHERE tenant = 't0' AND "reg.ion" = 'us' AND "#day" = 'd1' AND seq BETWEEN 5 AND 40`,
      `SELECT id FROM ${table} WHERE tenant IN ('t0', 't1') AND "reg.ion" = 'eu' AND "#day" >= 'd1'`,
    ];
    for (const sql of statements) {
      const shown = await plan(sql);
      expect(shown.fetches[0]?.call).toMatchObject({ operation: 'Query', index: MULTI_INDEX });
      expect(shown.fetches[0]?.reason).toMatch(
        /every partition attribute of index byTenantRegion \(tenant, reg\.ion\)/,
      );
      calls.length = 0;
      const on = await rows(sql, true);
      expect(reads(calls).every((c) => c === 'QueryCommand')).toBe(true);
      const off = await rows(sql, false);
      expect(on.length).toBeGreaterThan(0);
      expect(on).toEqual(off);
    }
    const keyed = await plan(statements[2]!);
    expect(keyed.fetches[0]?.call.keyCondition).toBe(
      `tenant = 't0' AND "reg.ion" = 'us' AND "#day" = 'd1' AND seq BETWEEN 5 AND 40`,
    );
  });

  it('keeps a Scan, and says why, when the statement names only some partition attributes', async () => {
    const sql = `SELECT id FROM ${table} WHERE tenant = 't1' AND "#day" = 'd1'`;
    const shown = await plan(sql);
    expect(shown.fetches[0]?.call.operation).toBe('Scan');
    expect(shown.fetches[0]?.reason).toMatch(
      /index byTenantRegion needs = on every partition attribute \(tenant, reg\.ion\); none is given for reg\.ion/,
    );
    calls.length = 0;
    const on = await rows(sql, true);
    expect(reads(calls)).toEqual(['ScanCommand']);
    expect(on).toEqual(await rows(sql, false));
    expect(on.length).toBeGreaterThan(0);
  });
});
