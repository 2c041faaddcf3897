import { describe, expect, it } from 'vitest';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { expectedRows, loadSltFiles, renderRows, type SltTable } from '../support/sql-logic';

/** The engine alone (no DynamoDB) on every tests/sql-logic/*.slt file. */
function localTables(tables: SltTable[]) {
  return tables.map((t) => {
    const info = tableInfo(t.name, t.keys[0]!.name, t.keys[1]?.name);
    info.keys.partitionKey.type = t.keys[0]!.type;
    if (info.keys.sortKey) info.keys.sortKey.type = t.keys[1]!.type;
    return { info, items: t.items };
  });
}

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
