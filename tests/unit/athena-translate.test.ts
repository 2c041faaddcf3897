import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runLocal } from '../../src/main/sql/executor/run-local';
import { toText } from '../../src/main/sql/executor/functions';
import { translateToAthena, type GlueTarget } from '../../src/main/athena/translate/translate';
import { itemType } from '../../src/main/athena/glue-table';
import { ExportObserver } from '../../src/main/athena/export-schema';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { athenaExactRows, localExactRows, sortedRows } from '../support/athena/exact-rows';
import { goldenFiles, pretty, readGolden, writeGolden } from '../support/athena/golden';
import { SHOP_ITEMS, SHOP_TABLE, SHOP_VIEWS } from '../support/athena/shop';

/**
 * Every construct of the workbench, translated to Athena SQL and checked two ways: the text
 * against tests/athena/*.golden (UPDATE_GOLDEN=1 rewrites them, to be read in review), and the
 * rows of the translated statement on DuckDB over the export's items against the local engine's,
 * digit for digit. The schema is the export's own items, as the Athena path reads it.
 */
const NOW = Date.parse('2024-07-01T00:00:00Z');
const seen = new ExportObserver();
for (const item of SHOP_ITEMS) seen.see(item);
const root = seen.root;
const target: GlueTarget = {
  database: 'dynotable',
  tables: new Map([['Shop', { glueTable: 'shop_export', root, complete: true }]]),
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
        const athena = await athenaExactRows(duck, result.translation.sql);
        const exact = c.asText ? local.rows.map((r) => r.map(toText)) : localExactRows(local.rows);
        const [theirs, mine] = [athena.rows, exact];
        expect(c.ordered ? theirs : sortedRows(theirs)).toEqual(c.ordered ? mine : sortedRows(mine));
        expect(athena.columns).toEqual(local.columns);
      });
    });
  });
}
