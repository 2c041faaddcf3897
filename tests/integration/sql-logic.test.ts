import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromTagged } from '../../src/main/sql/values/value';
import { localClient } from '../support/dynamo-local';
import { expectedRows, loadSltFiles, renderRows } from '../support/sql-logic';
import { createSltTables, renameSltTables } from '../support/sql-logic-tables';
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

for (const file of loadSltFiles()) {
  describe(`sql-logic ${file.name} (DynamoDB Local)`, () => {
    let names: Map<string, string>;
    beforeAll(async () => {
      names = await createSltTables(client, file.tables);
    });
    for (const record of file.records) {
      for (const pushdown of [true, false]) {
        it(`line ${record.line}, pushdown ${pushdown ? 'on' : 'off'}: ${record.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
          const { session, connection } = sessionFor(client, `slt-${file.name}`);
          const running = session.run(connection, renameSltTables(record.sql, names), [], {
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
