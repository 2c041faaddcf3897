import { describe, expect, it } from 'vitest';
import { runLocal } from '../../src/main/sql/executor/run-local';
import { expectedRows, loadSltFiles, localTables, renderRows } from '../support/sql-logic';

/** The engine alone (no DynamoDB) on every tests/sql-logic/*.slt file. */
for (const file of loadSltFiles()) {
  describe(`sql-logic ${file.name} (engine)`, () => {
    const tables = localTables(file.tables);
    for (const record of file.records) {
      it(`line ${record.line}: ${record.sql.replace(/\s+/g, ' ').slice(0, 90)}`, () => {
        if (record.kind === 'error') {
          expect(() => runLocal(record.sql, tables)).toThrow(record.pattern);
          return;
        }
        const { rows } = runLocal(record.sql, tables);
        expect(renderRows(rows, record.rowsort)).toEqual(expectedRows(record));
      });
    }
  });
}
