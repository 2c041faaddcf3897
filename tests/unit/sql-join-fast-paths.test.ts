import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { TableInfo } from '../../src/shared/sql/catalog';
import { bindStatement } from '../../src/main/sql/binder/bind-query';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { executeQuery } from '../../src/main/sql/executor/execute';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { parseStatement } from '../../src/main/sql/parser/parser';
import { numToString, isNum } from '../../src/main/sql/values/decimal';

/**
 * The join's key numbering and the filters' prefix masks are kept with the decoded columns
 * between statements (operators/join-keys.ts, filter-codes.ts). A session appends pages to the
 * same ColumnarTable as a scan goes on, so a statement after an append must see the new rows,
 * never the numbering or mask built for fewer rows.
 */
const infos: TableInfo[] = [tableInfo('Cust', 'customerId'), tableInfo('Ord', 'orderId')];

function run(text: string, tables: Map<string, ColumnarTable>): string[] {
  const bound = bindStatement(parseStatement(text), {
    text,
    resolveTable: (name, schema, span) =>
      resolveTable({ tables: infos, views: [] }, name, schema, span, text),
  });
  const result = executeQuery(bound, {
    text,
    fn: { nowMs: 0 },
    tableFor: (binding) => tables.get((binding.source as { table: TableInfo }).table.name)!,
    warn: () => undefined,
  });
  return Array.from({ length: result.length }, (_, i) =>
    result
      .row(i)
      .map((v) => (isNum(v) ? numToString(v) : typeof v === 'string' ? v : 'NULL'))
      .join(' | '),
  ).sort();
}

const customer = (id: string, country: string): Item => ({ customerId: { S: id }, country: { S: country } });
const order = (id: string, customerId: string, status: string, total: string): Item => ({
  orderId: { S: id },
  customerId: { S: customerId },
  status: { S: status },
  total: { N: total },
});

function emptyTables() {
  const cust = new ColumnarTable('Cust', ['customerId']);
  const ord = new ColumnarTable('Ord', ['orderId']);
  return {
    cust,
    ord,
    tables: new Map([
      ['Cust', cust],
      ['Ord', ord],
    ]),
  };
}

describe('kept join numbering and filter masks', () => {
  it('a statement after more pages arrive sees the new rows on both sides of the join', () => {
    const { cust, ord, tables } = emptyTables();
    cust.appendTaggedItems([customer('C1', 'NO'), customer('C2', 'SE')]);
    ord.appendTaggedItems([order('O1', 'C1', 'PAID', '10.5'), order('O2', 'C3', 'PAID', '1')]);
    const sql =
      "SELECT c.country, COUNT(*), SUM(o.total) FROM Ord o JOIN Cust c ON o.customerId = c.customerId WHERE o.status = 'PAID' AND begins_with(o.orderId, 'O') GROUP BY c.country";
    expect(run(sql, tables)).toEqual(['NO | 1 | 10.5']);
    // C3 arrives, so O2 now joins; O3 is a new order of C2.
    cust.appendTaggedItems([customer('C3', 'NO')]);
    ord.appendTaggedItems([order('O3', 'C2', 'PAID', '0.25'), order('X4', 'C2', 'PAID', '99')]);
    expect(run(sql, tables)).toEqual(['NO | 2 | 11.5', 'SE | 1 | 0.25']);
  });

  it('a column decoded again after coolDown gets a numbering of its own', () => {
    const { cust, ord, tables } = emptyTables();
    cust.appendTaggedItems([customer('C1', 'NO')]);
    ord.appendTaggedItems([order('O1', 'C1', 'PAID', '2')]);
    const sql = 'SELECT o.orderId, c.country FROM Ord o JOIN Cust c ON o.customerId = c.customerId';
    expect(run(sql, tables)).toEqual(['O1 | NO']);
    run('SELECT COUNT(*) FROM Ord', tables);
    cust.coolDown();
    ord.coolDown();
    ord.appendTaggedItems([order('O2', 'C1', 'OPEN', '3')]);
    expect(run(sql, tables)).toEqual(['O1 | NO', 'O2 | NO']);
  });
});
