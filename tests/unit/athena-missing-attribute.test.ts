import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { translateToAthena } from '../../src/main/athena/translate/translate';
import { ExportObserver, exportSchemaOf } from '../../src/main/athena/export-schema';

/**
 * Issue 30: an attribute the statement names is read from the Glue table whenever any item of
 * the export holds it, and one no item holds is said in a note the user reads before the run,
 * instead of a silent NULL AS "refund" … WHERE (NOT TRUE).
 */
const S = (s: string) => ({ S: s });
const N = (n: string) => ({ N: n });
const ITEMS: Item[] = Array.from({ length: 300 }, (_, i) => ({
  id: S(`o${i}`),
  total: N(String(i)),
  ...(i === 211 ? { refund: N('12.5') } : {}),
  // As the export's lines parse: JSON.parse makes "__proto__" an own attribute, not a prototype.
  ...(i === 5 ? (JSON.parse('{"__proto__": {"S": "odd"}, "constructor": {"N": "1"}}') as Item) : {}),
}));
const TABLE = tableInfo('Orders', 'id');
const catalog = { tables: [TABLE], views: [] };

function target(items: readonly Item[], complete: boolean) {
  const seen = new ExportObserver();
  for (const item of items) seen.see(item);
  return {
    database: 'dynotable',
    tables: new Map([['Orders', { glueTable: 'orders_export', root: seen.root, complete }]]),
  };
}

/** The statement's translation over an export of these items; a refusal fails the test with its sentence. */
function translated(sql: string, items: readonly Item[] = ITEMS, complete = true) {
  const result = translateToAthena(sql, catalog, target(items, complete));
  if (!result.ok) throw new Error(result.message);
  return result.translation;
}

describe('every attribute a statement names (issue 30)', () => {
  it('reads `refund`, which 1 item of 300 holds, from the export', () => {
    const translation = translated('SELECT id FROM Orders WHERE refund > 0');
    expect(translation.sql).toContain('"item"."refund"."n"');
    expect(translation.sql).not.toMatch(/NOT TRUE|NULL AS/);
    expect(translation.notes.join(' ')).not.toMatch(/refund/);
  });

  it('says "no item has" an attribute the whole export lacks', () => {
    const translation = translated('SELECT id, rebate FROM Orders WHERE rebate > 0');
    expect(translation.notes).toContain(
      'No item has rebate: it reads as missing on Athena, as it does locally.',
    );
  });

  it('says only what it knows when the schema came from some items', () => {
    const sample = ITEMS.slice(0, 100);
    const translation = translated('SELECT id FROM Orders WHERE refund > 0', sample, false);
    expect(translation.notes).toContain(
      "None of the items DynoTable has read holds refund; before the query starts, the export's own files say whether any item does.",
    );
  });

  it('keeps __proto__ and constructor as attributes like any other', () => {
    const translation = translated(
      'SELECT id, "__proto__", "constructor" FROM Orders WHERE "constructor" = 1',
    );
    expect(translation.sql).toContain('"item"."__proto__"."s"');
    expect(translation.sql).toContain('CAST("Orders"."item"."constructor"."n" AS DECIMAL(1, 0))');
    expect(exportSchemaOf([]).children.size).toBe(0);
  });
});
