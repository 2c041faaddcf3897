import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runLocal } from '../../src/main/sql/executor/run-local';
import { toText } from '../../src/main/sql/executor/functions';
import { translateToAthena, type GlueTarget } from '../../src/main/athena/translate/translate';
import { itemType } from '../../src/main/athena/glue-table';
import { comparable, comparableRows, sorted } from '../support/duckdb-oracle';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { goldenFiles, pretty, readGolden, writeGolden } from '../support/athena/golden';
import { observedSchema, SHOP_ITEMS, SHOP_TABLE, SHOP_VIEWS } from '../support/athena/shop';

/**
 * Every construct of the workbench, translated to Athena SQL and checked two ways: the text
 * against tests/athena/*.golden (UPDATE_GOLDEN=1 rewrites them, to be read in review), and the
 * rows of the translated statement on DuckDB over the export's items against the local engine's.
 */
const NOW = Date.parse('2024-07-01T00:00:00Z');
const root = observedSchema(SHOP_ITEMS);
const target: GlueTarget = {
  database: 'dynotable',
  tables: new Map([['Shop', { glueTable: 'shop_export', root }]]),
};
const catalog = { tables: [SHOP_TABLE], views: SHOP_VIEWS };
let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await athenaOnDuck('dynotable', [
    { glueTable: 'shop_export', itemType: itemType(root, []), items: SHOP_ITEMS },
  ]);
});
afterAll(() => duck.closeSync());

function render(sql: string): string {
  const result = translateToAthena(sql, catalog, target);
  if (!result.ok) return `--- refused\n${result.message}`;
  const notes = result.translation.notes.map((n) => `- ${n}`).join('\n');
  return `--- athena\n${pretty(result.translation.sql)}${notes ? `\n--- notes\n${notes}` : ''}`;
}

/** Rows as both engines can agree on them: numbers to 12 digits; -0 is 0. */
function normal(rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((v) => {
      const c = comparable(v);
      return c === 0 ? 0 : c;
    }),
  );
}

for (const file of goldenFiles()) {
  describe(`athena translation ${file}`, () => {
    const cases = readGolden(file);
    const actual = cases.map((c) => render(c.sql));
    if (process.env.UPDATE_GOLDEN) writeGolden(file, cases, actual);

    cases.forEach((c, i) => {
      it(`${c.title}: the translation is the golden one`, () => {
        expect(actual[i]).toBe(c.expected);
      });
      if (actual[i]!.startsWith('--- refused') || c.noCompare) return;
      it(`${c.title}: Athena's SQL on DuckDB gives the local engine's rows`, async () => {
        const result = translateToAthena(c.sql, catalog, target);
        if (!result.ok) throw new Error(result.message);
        const local = runLocal(c.sql, [{ info: SHOP_TABLE, items: SHOP_ITEMS }], SHOP_VIEWS, NOW);
        const reader = await duck.runAndReadAll(result.translation.sql);
        const raw = reader.getRowsJS() as unknown[][];
        const athena = c.asText
          ? raw.map((r) => r.map((v) => (v === null ? null : String(v as string | number | boolean))))
          : normal(raw);
        const mine = c.asText ? local.rows.map((r) => r.map(toText)) : normal(comparableRows(local.rows));
        expect(c.ordered ? athena : sorted(athena)).toEqual(c.ordered ? mine : sorted(mine));
        expect(reader.columnNames()).toEqual(local.columns);
      });
    });
  });
}
