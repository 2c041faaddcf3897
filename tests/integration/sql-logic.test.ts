import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { fromTagged } from '../../src/main/sql/values/value';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { expectedRows, loadSltFiles, renderRows, type SltTable } from '../support/sql-logic';
import { sessionFor } from './sql-support';

/**
 * Every tests/sql-logic/*.slt file through the whole path — plan, DynamoDB Local, engine — once
 * with pushdown and once without: both must give the file's rows (so pushdown never changes an
 * answer, and a condition DynamoDB refuses never fails a statement).
 */
let client: DynamoDBClient;
beforeAll(() => {
  client = localClient(inject('dynamoEndpoint'));
});
afterAll(() => client.destroy());

async function createTables(tables: SltTable[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const t of tables) {
    const name = await createTable(client, uniqueTableName(`slt_${t.name}`), {
      partitionKey: [t.keys[0]!.name, t.keys[0]!.type],
      sortKey: t.keys[1] ? [t.keys[1].name, t.keys[1].type] : undefined,
    });
    await putItems(
      client,
      name,
      t.items.map((item) => toSdkItem(item)),
    );
    names.set(t.name, name);
  }
  return names;
}

/** The file's table names → this run's unique DynamoDB tables (whole words only). */
function rename(sql: string, names: Map<string, string>): string {
  let out = sql;
  for (const [from, to] of names) out = out.replace(new RegExp(`\\b${from}\\b`, 'g'), `"${to}"`);
  return out;
}

for (const file of loadSltFiles()) {
  describe(`sql-logic ${file.name} (DynamoDB Local)`, () => {
    let names: Map<string, string>;
    beforeAll(async () => {
      names = await createTables(file.tables);
    });
    for (const record of file.records) {
      for (const pushdown of [true, false]) {
        it(`line ${record.line}, pushdown ${pushdown ? 'on' : 'off'}: ${record.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
          const { session, connection } = sessionFor(client, `slt-${file.name}`);
          const running = session.run(connection, rename(record.sql, names), [], {
            signal: new AbortController().signal,
            refresh: true,
            pushdown,
          });
          if (record.kind === 'error') {
            await expect(running).rejects.toThrow(record.pattern);
            return;
          }
          const summary = await running;
          const window = session.results.window(summary.resultId, 0, 10_000);
          const rows = window.rows.map((row) => row.map((v) => (v === null ? null : fromTagged(v))));
          expect(renderRows(rows, record.rowsort)).toEqual(expectedRows(record));
        });
      }
    }
  });
}
