import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SchemaReport, SchemaValueType } from '../../src/shared/ipc/schema';
import { buildReadRequest } from '../../src/shared/dynamo/read-request';
import {
  expectedCount,
  itemFilter,
  pathNames,
  type PickScope,
  type SchemaPick,
  sqlParts,
  sqlStatement,
} from '../../src/shared/schema/click-through';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { parseSchemaPath } from '../../src/shared/schema/schema-paths';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createOrdersTable, pointDynamoose, writeOrders, writeTraps } from '../support/migration-fixture';
import { rawScanItems, rawDynamo } from '../support/raw-dynamo';
import { sessionFor } from './sql-support';

// What the Schema tab counted for a path is what its click-through finds: the Items tab's Scan
// filter (sent as wire JSON to DynamoDB Local) and the workbench's SQL both count the same items.
const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());
const table = uniqueTableName('schclick');
let report: SchemaReport;

beforeAll(async () => {
  pointDynamoose(endpoint);
  await createOrdersTable(client, table);
  await writeOrders(table, 30);
  await writeTraps(client, table);
  ({ report } = await analyzeSchema({
    client,
    table,
    mode: 'full',
    scanId: 'schema-click-1',
    segments: 2,
    signal: new AbortController().signal,
  }));
});

/** Items a Scan with the Items tab's filter returns, every page, as DynamoDB Local answers. */
async function itemsCount(scope: PickScope, pick: SchemaPick): Promise<number> {
  const filter = itemFilter(scope, pick);
  if (typeof filter === 'string') throw new Error(filter);
  const { input } = buildReadRequest(
    { table, keys: report.keys, indexes: [] },
    { mode: 'scan', filter: { kind: 'group', join: filter.join, items: filter.conditions } },
  );
  let count = 0;
  let start: unknown;
  do {
    const page: { Count: number; LastEvaluatedKey?: unknown } = await rawDynamo(endpoint, 'Scan', {
      ...input,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    count += page.Count;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

async function sqlCount(scope: PickScope, pick: SchemaPick): Promise<number> {
  const parts = sqlParts(scope, pick);
  if (typeof parts === 'string') throw new Error(parts);
  const { session, connection } = sessionFor(client);
  const summary = await session.run(
    connection,
    `SELECT COUNT(*) FROM ${parts.from} WHERE ${parts.where}`,
    [],
    {
      signal: new AbortController().signal,
      refresh: true,
    },
  );
  const cell = session.results.window(summary.resultId, 0, 1).rows[0]?.[0] as { N: string };
  return Number(cell.N);
}

function picksOf(scope: PickScope): SchemaPick[] {
  const a = report.attributes.find((x) => x.path === scope.path);
  if (!a) throw new Error(scope.path);
  return [
    { kind: 'present' },
    { kind: 'missing' },
    ...(Object.keys(a.types) as SchemaValueType[]).map((type): SchemaPick => ({ kind: 'type', type })),
    ...(a.topValues ?? [])
      .slice(0, 3)
      .map((v): SchemaPick => ({ kind: 'value', type: v.type, value: v.value })),
  ];
}

type Wire = Record<string, unknown>;

/** Every item as DynamoDB Local's wire JSON, every page. */
const rawItems = (): Promise<Wire[]> => rawScanItems(endpoint, table);

/** The values a schema path reaches in one wire item: -1 is every element of a list. */
function valuesAt(item: Wire, steps: (string | -1)[]): Wire[] {
  let at: Wire[] = [{ M: item }];
  for (const step of steps) {
    const next: Wire[] = [];
    for (const v of at) {
      if (step === -1) {
        if (Array.isArray(v.L)) next.push(...(v.L as Wire[]));
      } else if (v.M && typeof v.M === 'object' && Object.prototype.hasOwnProperty.call(v.M, step)) {
        next.push((v.M as Record<string, Wire>)[step] as Wire);
      }
    }
    at = next;
  }
  return at;
}

function holds(values: Wire[], pick: SchemaPick): boolean {
  if (pick.kind === 'present') return values.length > 0;
  if (pick.kind === 'missing') return values.length === 0;
  if (pick.kind === 'type') return values.some((v) => pick.type in v);
  if (pick.kind === 'value') return values.some((v) => pick.type in v && String(v[pick.type]) === pick.value);
  throw new Error('formats are checked elsewhere');
}

describe('schema click-through', () => {
  it('every top-level and nested path, type and common value: Items filter and SQL count what the read counted', async () => {
    const paths = report.attributes.map((a) => a.path).filter((p) => typeof pathNames(p) !== 'string');
    // The traps: a dotted top-level name, a nested path and a mixed-type attribute are among them.
    expect(paths).toEqual(expect.arrayContaining(['"address.city"', 'createdAt']));
    expect(paths.some((p) => /^\w+\.\w+$/.test(p))).toBe(true);
    for (const path of paths) {
      const scope: PickScope = { report, entity: '', path };
      const attribute = report.attributes.find((x) => x.path === path)!;
      for (const pick of picksOf(scope)) {
        const expected = expectedCount(scope, attribute, pick) ?? 0;
        const label = `${path} ${JSON.stringify(pick)}`;
        expect(await itemsCount(scope, pick), label).toBe(expected);
        expect(await sqlCount(scope, pick), label).toBe(expected);
      }
    }
  });

  it('scoped to one entity: only that entity’s items', async () => {
    const entity = report.entities.find(
      (e) => e.items > 0 && e.attributes.some((a) => a.path === 'createdAt'),
    );
    expect(entity).toBeDefined();
    const scope: PickScope = { report, entity: entity!.name, path: 'createdAt' };
    const attribute = entity!.attributes.find((a) => a.path === 'createdAt')!;
    for (const type of Object.keys(attribute.types) as ('S' | 'N')[]) {
      const pick: SchemaPick = { kind: 'type', type };
      expect(await itemsCount(scope, pick)).toBe(attribute.types[type]);
      expect(await sqlCount(scope, pick)).toBe(attribute.types[type]);
    }
    expect(await sqlCount(scope, { kind: 'missing' })).toBe(entity!.items - attribute.items);
  });

  it('list-element paths (tags[], history[].at): Items filter and SQL find the items an independent walk of the wire JSON finds', async () => {
    const paths = report.attributes.map((a) => a.path).filter((p) => p.includes('[]'));
    expect(paths).toEqual(expect.arrayContaining(['tags[]', 'history[].at', 'tags[]."due.at"']));
    const raw = await rawItems();
    for (const path of paths) {
      const scope: PickScope = { report, entity: '', path };
      const attribute = report.attributes.find((x) => x.path === path)!;
      for (const pick of picksOf(scope)) {
        const label = `${path} ${JSON.stringify(pick)}`;
        const expected = raw.filter((item) => holds(valuesAt(item, parseSchemaPath(path)), pick)).length;
        if (pick.kind === 'present') expect(expected, label).toBe(attribute.items);
        expect(await itemsCount(scope, pick), label).toBe(expected);
        expect(await sqlCount(scope, pick), label).toBe(expected);
      }
    }
  });

  it('a list-element pick within an entity counts that entity’s items; a format opens only in SQL', async () => {
    const entity = report.entities.find(
      (e) => (e.conditions ?? []).length > 0 && e.attributes.some((a) => a.path === 'history[].at'),
    )!;
    const scope: PickScope = { report, entity: entity.name, path: 'history[].at' };
    const expected = entity.attributes.find((a) => a.path === 'history[].at')!.items;
    // One position joins with the entity's keys by AND; several need OR too, which only SQL says.
    const filter = itemFilter(scope, { kind: 'present' });
    if (typeof filter === 'string') expect(filter).toMatch(/Open it in SQL/);
    else expect(await itemsCount(scope, { kind: 'present' })).toBe(expected);
    expect(await sqlCount(scope, { kind: 'present' })).toBe(expected);
    const iso = { report, entity: '', path: 'createdAt' };
    expect(itemFilter(iso, { kind: 'format', format: 'isoDateTime' })).toMatch(/SQL/);
    expect(sqlStatement(iso, { kind: 'format', format: 'isoDateTime' })).toEqual({
      text: `-- LIKE matches the format’s shape; the Schema tab’s detector checks more.\nSELECT *\nFROM "${table}"\nWHERE TYPE_OF("createdAt") = 'S' AND "createdAt" LIKE '____-__-__T%'\nLIMIT 100`,
    });
  });

  it('an ISO-format statement finds the strings the detector counted', async () => {
    const a = report.attributes.find((x) => x.path === 'createdAt')!;
    expect(
      await sqlCount({ report, entity: '', path: 'createdAt' }, { kind: 'format', format: 'isoDateTime' }),
    ).toBe(a.formats.isoDateTime);
  });
});
