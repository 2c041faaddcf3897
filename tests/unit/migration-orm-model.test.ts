import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import { generateOrmModel } from '../../src/shared/schema/orm-model';
import { expectationsOfOrmModel, readOrmModel } from '../../src/main/migration/orm-expectations';
import { buildReport, type TableKeyInfo } from '../../src/main/migration/report';
import { withExpectations } from '../../src/main/migration/verdict';
import { reportHead } from '../support/schema-report-head';
import { preflightReportMeta } from '../support/preflight-report-meta';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const info: TableKeyInfo = { keys, indexKeys: {} };
const meta = preflightReportMeta('shop');

const iso = (i: number) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString();
// Profiles hold ISO strings (also under a dotted top-level name), orders epoch milliseconds.
const items: Item[] = [
  ...Array.from({ length: 10 }, (_, i) => ({
    PK: { S: `USER#u${i}` },
    SK: { S: `PROFILE#u${i}` },
    createdAt: { S: iso(i) },
    'audit.at': { S: iso(i + 1) },
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    PK: { S: `USER#u${i}` },
    SK: { S: `ORDER#o${i}` },
    placedAt: { N: String(Date.UTC(2024, 1, 1 + i)) },
  })),
];

function ormModelOf(rows: Item[]): string {
  const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
  acc.addAll(rows);
  return generateOrmModel(
    buildSchemaReport(acc, reportHead({ scanId: 'm', table: 'shop', keys }), ['PK', 'SK']),
    undefined,
    'shop',
  );
}

function preflightOf(rows: Item[]) {
  const acc = SchemaAccumulator.findingsOnly({ keyAttributes: ['PK', 'SK'] });
  acc.addAll(rows);
  return buildReport(acc.findings, info, meta);
}

describe('scan-migration reads the date storage of a model the Schema view generated', () => {
  it('takes each z.date() attribute with its model’s defaultDateStorage (epoch ms where it says none)', () => {
    const settings = expectationsOfOrmModel(ormModelOf(items), 'models.ts');
    expect(settings).toEqual(
      expect.arrayContaining([
        { path: 'createdAt', storage: 'iso' },
        { path: '["audit.at"]', storage: 'iso' },
        { path: 'placedAt', storage: 'millis' },
      ]),
    );
    expect(settings).toHaveLength(3);
  });

  it('turns the pre-flight verdict from "set the models" into ready for the dates, and is contradicted by data that differs', () => {
    const report = preflightOf(items);
    const settings = expectationsOfOrmModel(ormModelOf(items), 'models.ts');
    expect(report.verdict.settings.join(' ')).toContain('createdAt');
    const acknowledged = withExpectations(report, settings);
    expect(acknowledged.verdict.settings).toEqual([]);
    // The model says ISO for createdAt; a later item holding epoch seconds there contradicts it.
    const drifted = preflightOf([
      ...items,
      { PK: { S: 'USER#x' }, SK: { S: 'PROFILE#x' }, createdAt: { N: '1704448800' } },
    ]);
    expect(withExpectations(drifted, settings).verdict.actionNeeded).toBe(true);
  });

  it('names each model, its top-level attributes and its Date attributes, for the Pre-flight view to show', () => {
    const entities = readOrmModel(ormModelOf(items), 'models.ts');
    const byDates = new Map(entities.map((e) => [e.dates.join(','), e]));
    // Profiles hold ISO strings: their model says so; orders say nothing, so the ORM's epoch ms applies.
    expect(byDates.get('createdAt,["audit.at"]') ?? byDates.get('["audit.at"],createdAt')).toMatchObject({
      dateStorage: 'iso',
      isStorageSaid: true,
    });
    const order = byDates.get('placedAt');
    expect(order).toMatchObject({ dateStorage: 'millis', isStorageSaid: false });
    expect(order?.attributes.slice().sort()).toEqual(['PK', 'SK', 'placedAt']);
    expect(entities.every((e) => /^[A-Z]/.test(e.name))).toBe(true);
    // Nested fields are not top-level attributes; option names are not attributes at all.
    const nested = readOrmModel(
      `export const A = model(\n  'A',\n  z.object({\n    id: hashKey(z.string()),\n    address: z.object({\n      city: z.string(),\n    }),\n  }),\n  {defaultDateStorage: 'epochSeconds'}\n);\n`,
      'a.ts',
    );
    expect(nested).toEqual([
      { name: 'A', dateStorage: 'seconds', isStorageSaid: true, attributes: ['id', 'address'], dates: [] },
    ]);
  });

  it('refuses a file with no model in it, in a sentence', () => {
    expect(() => expectationsOfOrmModel('export const x = 1;\n', 'x.ts')).toThrow(/no dynotable-orm model/);
  });
});
