import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { bindStatement } from '../../src/main/sql/binder/bind-query';
import { executeQuery } from '../../src/main/sql/executor/execute';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { parseStatement } from '../../src/main/sql/parser/parser';
import { isNum, numToString } from '../../src/main/sql/values/decimal';
import { scaled } from '../fixtures/sql-fixture';

// GROUP BY a bare string column groups by the column's dictionary codes, and SUM/AVG of a bare
// number column add its scaled integers; both are kept with the table between statements. The
// answers must be those of plain loops over the items, also after more pages arrive (some
// without the attribute) and whatever the values: missing, NULL, empty, other types, 38 digits.
const catalog = { tables: [tableInfo('T', 'pk')], views: [] };

function query(table: ColumnarTable, text: string): { rows: unknown[][]; warnings: string[] } {
  const bound = bindStatement(parseStatement(text), {
    text,
    resolveTable: (name, schema, span) => resolveTable(catalog, name, schema, span, text),
  });
  const warnings: string[] = [];
  const result = executeQuery(bound, {
    text,
    fn: { nowMs: 0 },
    tableFor: () => table,
    warn: (message) => warnings.push(message),
  });
  const rows = Array.from({ length: result.length }, (_, i) =>
    result.row(i).map((v) => (isNum(v) ? numToString(v) : (v ?? null))),
  );
  return { rows, warnings };
}

const keyValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'B', '', '\u0000s', 'é', 'a ') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<AttributeValue>({ NULL: true }) },
  { weight: 1, arbitrary: fc.constantFrom<AttributeValue>({ N: '7' }, { BOOL: true }) },
);
const amountValue = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -99_999, max: 99_999 }).map((c) => String(c / 100)) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('x', '12345678901234567890123456789012345678', '900000000000000') },
);

interface Row {
  key: string | AttributeValue | undefined;
  amount: string | undefined;
}

function item(i: number, row: Row): Item {
  const it: Item = { pk: { S: `p${i}` } };
  if (row.key !== undefined) it.k = typeof row.key === 'string' ? { S: row.key } : row.key;
  if (row.amount !== undefined)
    it.amount = /^-?[\d.]+$/.test(row.amount) ? { N: row.amount } : { S: row.amount };
  return it;
}

/** The expected answer, from a plain loop: one group per key (missing and NULL together). */
function expected(rows: readonly Row[]): string[] {
  const groups = new Map<string, { key: string | null; count: number; sum: bigint; numbers: number }>();
  for (const row of rows) {
    const k = row.key;
    const tag = k === undefined || (typeof k !== 'string' && 'NULL' in k) ? 'null' : JSON.stringify(k);
    const key = typeof k === 'string' ? k : k && 'N' in k ? k.N : k && 'BOOL' in k ? String(k.BOOL) : null;
    const group = groups.get(tag) ?? { key, count: 0, sum: 0n, numbers: 0 };
    group.count += 1;
    if (row.amount !== undefined && row.amount !== 'x') {
      group.sum += scaled(row.amount);
      group.numbers += 1;
    }
    groups.set(tag, group);
  }
  return [...groups.values()].map((g) =>
    JSON.stringify([g.key, String(g.count), g.numbers ? String(g.sum) : null]),
  );
}

function actual(table: ColumnarTable): string[] {
  return query(table, 'SELECT k, COUNT(*), SUM(amount) FROM T GROUP BY k').rows.map(([k, n, s]) =>
    JSON.stringify([
      k === null ? null : String(k as string | boolean),
      n,
      s === null ? null : String(scaled(s as string)),
    ]),
  );
}

describe('GROUP BY on dictionary codes and SUM on scaled integers', () => {
  it('answer as plain loops do, statement after statement while pages arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.record({ key: keyValue, amount: amountValue }), { maxLength: 60 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (pages) => {
          const table = new ColumnarTable('T', ['pk']);
          const seen: Row[] = [];
          for (const page of pages) {
            table.appendTaggedItems(page.map((row, j) => item(seen.length + j, row)));
            seen.push(...page);
            expect(actual(table).sort()).toEqual(expected(seen).sort());
          }
        },
      ),
      { numRuns: 300 },
    );
    // ~1 s on a quiet machine; 300 runs of up to 4 statements took over 5 s at a load of 20.
  }, 60_000);

  it('see rows appended without the grouped attribute as NULL, not as the codes of old rows', () => {
    const table = new ColumnarTable('T', ['pk']);
    table.appendTaggedItems([item(0, { key: 'a', amount: '1' }), item(1, { key: 'b', amount: '2' })]);
    expect(actual(table).sort()).toEqual(
      expected([
        { key: 'a', amount: '1' },
        { key: 'b', amount: '2' },
      ]).sort(),
    );
    table.appendTaggedItems([{ pk: { S: 'p2' } }, { pk: { S: 'p3' } }]);
    expect(query(table, 'SELECT k, COUNT(*), SUM(amount) FROM T GROUP BY k ORDER BY k').rows).toEqual([
      [null, '2', null],
      ['a', '1', '1'],
      ['b', '1', '2'],
    ]);
  });

  it('keep a join that repeats one large amount exact, past where doubles stop being exact', () => {
    // 9e14 (in cents 9e16) repeated by the join goes past 2^53: the fast sum must give way.
    const table = new ColumnarTable('T', ['pk']);
    const items: Item[] = [
      { pk: { S: 'big' }, k: { S: 'g' }, amount: { N: '900000000000000.01' } },
      ...Array.from({ length: 40 }, (_, i) => ({ pk: { S: `o${i}` }, k: { S: 'g' }, amount: { N: '1' } })),
    ];
    table.appendTaggedItems(items);
    const { rows } = query(table, 'SELECT a.k, SUM(a.amount) FROM T a JOIN T b ON a.k = b.k GROUP BY a.k');
    const total = items.reduce((sum, it) => sum + scaled((it.amount as { N: string }).N), 0n) * 41n;
    expect(scaled(rows[0]![1] as string)).toBe(total);
  });

  it('warn about values that are not numbers on the fast path too', () => {
    const table = new ColumnarTable('T', ['pk']);
    table.appendTaggedItems([item(0, { key: 'a', amount: '1.5' }), item(1, { key: 'a', amount: 'x' })]);
    const { rows, warnings } = query(table, 'SELECT k, SUM(amount), AVG(amount) FROM T GROUP BY k');
    expect(rows).toEqual([['a', '1.5', '1.5']]);
    expect(warnings.join(' ')).toMatch(/SUM\(amount\) skipped 1 value that is not a number/);
  });
});
