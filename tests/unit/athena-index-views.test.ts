import { afterAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import { keyAttributeNames } from '../../src/shared/dynamo/key-model';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { translateToAthena, type GlueTarget } from '../../src/main/athena/translate/translate';
import { glueTableInput, itemType } from '../../src/main/athena/glue-table';
import { ExportObserver } from '../../src/main/athena/export-schema';
import { ionExportItems } from '../../src/main/athena/ion-export';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { athenaExactRows } from '../support/athena/exact-rows';
import { fullLine, type WireItem } from '../support/exports/export-layout';

/**
 * Entity views over an index on the Athena path (issue 28's multi-attribute keys, issue 30): a
 * global secondary index with two partition and two sort attributes holds only the items that
 * have all four, so the view's Athena SQL must test every key attribute, not one HASH and one
 * RANGE. Checked over a DynamoDB JSON and an Ion export (native values, no type members), the
 * oracle a plain filter of the items by the key model.
 */
const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

const ITEMS: Item[] = [
  { id: S('a'), tenant: S('T1'), region: S('eu'), day: S('2024-01-01'), seq: N('1') },
  { id: S('b'), tenant: S('T1'), region: S('eu'), day: S('2024-01-02'), seq: N('12') },
  // Each lacks one key attribute of the index, so the index does not hold it.
  { id: S('c'), tenant: S('T1'), day: S('2024-01-03'), seq: N('3') },
  { id: S('d'), tenant: S('T1'), region: S('us'), day: S('2024-01-04') },
  { id: S('e'), tenant: S('T1'), region: S('us'), seq: N('5') },
  { id: S('f'), tenant: S('T2'), region: S('eu'), day: S('2024-01-05'), seq: N('6') },
  { id: S('g'), tenant: S('T1'), region: S('us'), day: S('2024-02-01'), seq: N('7') },
];

const INDEX_KEYS = {
  partitionKey: { name: 'tenant', type: 'S' as const },
  morePartitionKeys: [{ name: 'region', type: 'S' as const }],
  sortKey: { name: 'day', type: 'S' as const },
  moreSortKeys: [{ name: 'seq', type: 'N' as const }],
};
const TABLE = tableInfo('Events', 'id', undefined, {
  indexes: [{ name: 'byTenant', kind: 'GSI', keys: INDEX_KEYS, projection: 'ALL' }],
});

const VIEWS: EntityView[] = [
  {
    name: 'tenant1',
    table: 'Events',
    index: 'byTenant',
    source: 'user',
    conditions: [{ attribute: 'tenant', op: '=', values: [S('T1')] }],
  },
  {
    name: 'early',
    table: 'Events',
    source: 'user',
    conditions: [{ attribute: 'seq', op: 'between', values: [N('2'), N('6')] }],
  },
];
const catalog = { tables: [TABLE], views: VIEWS };

/** The oracle: the items the index holds (every key attribute present) that meet the condition. */
function inIndex(item: Item): boolean {
  return keyAttributeNames(INDEX_KEYS).every((name) => item[name] !== undefined);
}

const connections: DuckDBConnection[] = [];
afterAll(() => {
  for (const c of connections) c.closeSync();
});

for (const format of ['DYNAMODB_JSON', 'ION'] as const) {
  describe(`entity views on the Athena path over a ${format} export`, () => {
    const ion = format === 'ION';
    const items = ion
      ? ionExportItems(ITEMS.map((item) => `${fullLine(item as WireItem, 'ION')}\n`).join(''))
      : ITEMS;
    const seen = new ExportObserver();
    for (const item of items) seen.see(item);
    const target: GlueTarget = {
      database: 'dynotable',
      tables: new Map([['Events', { glueTable: 'events', root: seen.root, complete: true, format }]]),
    };
    const type = ion
      ? glueTableInput({ name: 'events', format, location: '', root: seen.root, exportArn: '' }).table
          .StorageDescriptor.Columns[0]!.Type
      : itemType(seen.root, []);
    const duck = athenaOnDuck('dynotable', [{ glueTable: 'events', itemType: type, items, ion }]).then(
      (c) => (connections.push(c), c),
    );

    async function ids(sql: string): Promise<string[]> {
      const translated = translateToAthena(sql, catalog, target);
      if (!translated.ok) throw new Error(translated.message);
      return (await athenaExactRows(await duck, translated.translation.sql)).rows.map((r) => r[0]!).sort();
    }

    it('a view on a multi-attribute index holds only the items that have every key attribute', async () => {
      const translated = translateToAthena('SELECT id FROM tenant1', catalog, target);
      if (!translated.ok) throw new Error(translated.message);
      for (const name of ['tenant', 'region', 'day', 'seq'])
        expect(translated.translation.sql).toContain(`"item"."${name}" IS NOT NULL`);
      const expected = ITEMS.filter((i) => inIndex(i) && 'S' in i.tenant! && i.tenant.S === 'T1').map(
        (i) => (i.id as { S: string }).S,
      );
      expect(expected).toEqual(['a', 'b', 'g']);
      expect(await ids('SELECT id FROM tenant1')).toEqual(expected);
    });

    it('a number key condition compares the values the export holds', async () => {
      const expected = ITEMS.filter((i) => i.seq && Number((i.seq as { N: string }).N) >= 2)
        .filter((i) => Number((i.seq as { N: string }).N) <= 6)
        .map((i) => (i.id as { S: string }).S);
      expect(await ids('SELECT id FROM early')).toEqual(expected);
    });
  });
}
