import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { translateToAthena } from '../../src/main/athena/translate/translate';
import { glueTableInput } from '../../src/main/athena/glue-table';
import { ExportObserver } from '../../src/main/athena/export-schema';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { athenaExactRows, localExactRows, sortedRows } from '../support/athena/exact-rows';

/** NULL next to missing over an Ion export, whose NULL is a null value with no "null" member. */
const ITEMS: Item[] = [
  { id: { S: 'C1' }, region: { S: 'north' } },
  { id: { S: 'C2' }, region: { NULL: true } },
  { id: { S: 'C3' } },
];
const TABLE = tableInfo('Customers', 'id');
const seen = new ExportObserver();
for (const item of ITEMS) seen.see(item);
const target = {
  database: 'dynotable',
  tables: new Map([['Customers', { glueTable: 'customers', root: seen.root, format: 'ION' as const }]]),
};
const catalog = { tables: [TABLE], views: [] };
let duck: DuckDBConnection;

beforeAll(async () => {
  const { table } = glueTableInput({
    name: 'customers',
    format: 'ION',
    location: '',
    root: seen.root,
    exportArn: '',
  });
  duck = await athenaOnDuck('dynotable', [
    { glueTable: 'customers', itemType: table.StorageDescriptor.Columns[0]!.Type, items: ITEMS, ion: true },
  ]);
});
afterAll(() => duck.closeSync());

describe('an Ion export on Athena', () => {
  it('IS NULL is true for NULL and missing and false for a string, as locally', async () => {
    const sql = 'SELECT id, region IS NULL, region IS NOT NULL FROM Customers';
    const result = translateToAthena(sql, catalog, target);
    if (!result.ok) throw new Error(result.message);
    const athena = await athenaExactRows(duck, result.translation.sql);
    const local = runLocal(sql, [{ info: TABLE, items: ITEMS }]);
    expect(sortedRows(athena.rows)).toEqual(sortedRows(localExactRows(local.rows)));
    expect(sortedRows(athena.rows)).toEqual([
      ['C1', 'false', 'true'],
      ['C2', 'true', 'false'],
      ['C3', 'true', 'false'],
    ]);
  });

  it('refuses IS MISSING of an attribute that holds NULL, which it cannot tell from missing', () => {
    const result = translateToAthena('SELECT id FROM Customers WHERE region IS MISSING', catalog, target);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.message).toBe(
        "IS MISSING of region cannot run on Athena: an Ion export's NULL is a null value, which Athena reads as it reads a missing region; an export in DynamoDB JSON tells them apart.",
      );
  });
});
