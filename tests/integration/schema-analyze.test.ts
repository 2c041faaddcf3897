import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AttributeSchema, SchemaReport } from '../../src/shared/ipc/schema';
import { analyzeSchema, type SchemaCheckpoint } from '../../src/main/schema/analyze';
import { pickDistinct } from '../../src/main/schema/sample-plan';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { createOrdersTable, pointDynamoose, writeOrders, writeTraps } from '../support/migration-fixture';
import { rawDynamo, rawScanItems } from '../support/raw-dynamo';
import { startFaultyDynamo } from '../support/faulty-dynamo';
import { tallyPaths } from '../support/schema-tally';

const endpoint = inject('dynamoEndpoint');
// As the app builds its clients: `__proto__` survives the SDK's deserializer (aws/proto-names.ts).
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());

type Wire = Record<string, unknown>;

/** Every stored item as DynamoDB Local's wire JSON, past the SDK and DynoTable. */
const rawItems = (table: string, index?: string): Promise<Wire[]> => rawScanItems(endpoint, table, index);

/** Records each Scan request's Segment, TotalSegments and Limit as the SDK sends it. */
function recordScans(c: DynamoDBClient): { segment: number; total: number; limit?: number }[] {
  const seen: { segment: number; total: number; limit?: number }[] = [];
  c.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'ScanCommand') {
        const input = args.input as { Segment: number; TotalSegments: number; Limit?: number };
        seen.push({ segment: input.Segment, total: input.TotalSegments, limit: input.Limit });
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordScans' },
  );
  return seen;
}

function expectEqualsTally(attributes: AttributeSchema[], items: Wire[]): void {
  const tally = tallyPaths(items);
  expect(attributes.map((a) => a.path).sort()).toEqual([...tally.keys()].sort());
  for (const a of attributes) {
    const t = tally.get(a.path);
    expect(a.items, a.path).toBe(t?.items.size);
    expect(a.types, a.path).toEqual(Object.fromEntries(t?.types ?? []));
    if (t && t.distinct.size <= 64)
      expect(a.distinct, a.path).toEqual({ count: t.distinct.size, isExact: true });
  }
}

const stillSignal = () => new AbortController().signal;

describe('schema of a table written by dynamoose 4.x, hostile names included', () => {
  const table = uniqueTableName('schema');

  beforeAll(async () => {
    pointDynamoose(endpoint);
    await createOrdersTable(client, table);
    await writeOrders(table, 48);
    await writeTraps(client, table);
    // Written as wire JSON past the SDK, whose serializer would drop the `__proto__` name.
    await rawDynamo(endpoint, 'PutItem', {
      TableName: table,
      Item: JSON.parse(`{
        "pk": {"S": "hostile#1"}, "sk": {"N": "1"},
        "__proto__": {"S": "proto"},
        "constructor": {"M": {"toString": {"N": "1"}, "[0]": {"SS": ["a", "b"]}}},
        "#tag": {"NS": ["1", "2.5"]},
        "say \\"hi\\"": {"L": [{"M": {"sku": {"S": "A-1"}}}, {"M": {"sku": {"N": "2"}}}]},
        "blob": {"B": "aGVsbG8="}, "flag": {"BOOL": true}, "gone": {"NULL": true}
      }`) as unknown,
    });
  });

  it('counts every path and type as a tally of the stored items', async () => {
    const { report, complete } = await analyzeSchema({
      client,
      table,
      mode: 'full',
      scanId: 'schema-full-1',
      segments: 3,
      signal: stillSignal(),
    });
    const stored = await rawItems(table);
    expect(complete).toBe(true);
    expect(report.complete).toBe(true);
    expect(report.itemsScanned).toBe(stored.length);
    expectEqualsTally(report.attributes, stored);
    const by = (path: string) => report.attributes.find((a) => a.path === path);
    expect(by('"address.city"')?.items).toBe(12);
    expect(by('createdAt')?.types).toEqual({ S: 16, N: 32 });
    expect(by('history[].at')?.formats.isoDateTime).toBe(16);
    expect(by('__proto__')?.types).toEqual({ S: 1 });
    expect(by('constructor."[0]"')?.setSize).toEqual({ min: 2, max: 2 });
    expect(by('"say ""hi"""[].sku')?.types).toEqual({ S: 1, N: 1 });
    const kinds = report.warnings.map((w) => `${w.kind} ${w.path}`);
    expect(kinds).toContain('isoAndEpoch createdAt');
    expect(kinds).toContain('dottedName "address.city"');
    expect(report.draw.description).toMatch(/Full scan of the table: 53 items in 3 parallel segments/);
  });

  it('reads an index: only the items it holds', async () => {
    const { report } = await analyzeSchema({
      client,
      table,
      index: 'byDay',
      mode: 'full',
      scanId: 'schema-index-1',
      signal: stillSignal(),
    });
    const stored = await rawItems(table, 'byDay');
    expect(report.index).toBe('byDay');
    expect(report.itemsScanned).toBe(stored.length);
    expectEqualsTally(report.attributes, stored);
  });
});

describe('sampling over segments', () => {
  it('reads the first page of the planned random segments, and says so', async () => {
    const table = await createTable(client, uniqueTableName('schs'), {
      partitionKey: ['PK', 'S'],
      sortKey: ['SK', 'S'],
    });
    const items = Array.from({ length: 2400 }, (_, i) => ({
      PK: { S: `USER#${i % 600}` },
      SK: { S: i < 600 ? 'PROFILE' : `ORDER#${i}` },
      ...(i < 600 ? { name: { S: `user ${i}` } } : { total: { N: String(i) } }),
    }));
    await putItems(client, table, items);
    const recording = localClient(endpoint);
    const scans = recordScans(recording);
    const { report } = await analyzeSchema({
      client: recording,
      table,
      mode: 'sample',
      scanId: 'schema-sample-1',
      sampleSize: 240,
      segments: 12,
      signal: stillSignal(),
      random: seeded(42),
    });
    recording.destroy();
    expect(report.sampled).toBe(true);
    expect(report.draw.segments).toHaveLength(12);
    expect(scans.map((s) => s.segment).sort((a, b) => a - b)).toEqual(report.draw.segments);
    expect(new Set(scans.map((s) => s.total))).toEqual(new Set([report.draw.totalSegments]));
    expect(scans.every((s) => s.limit === 20)).toBe(true);
    expect(report.draw.totalSegments).toBe(120);
    expect(report.itemsScanned).toBeGreaterThan(0);
    expect(report.itemsScanned).toBeLessThanOrEqual(240);
    expect(report.draw.description).toContain('of 12 random segments of 120 Scan segments of the table');
    // The union of the segments read, item for item: what a plain Scan of those segments returns.
    const expected: Wire[] = [];
    for (const segment of report.draw.segments) {
      const page: { Items: Wire[] } = await rawDynamo(endpoint, 'Scan', {
        TableName: table,
        Segment: segment,
        TotalSegments: report.draw.totalSegments,
        Limit: 20,
      });
      expected.push(...page.Items);
    }
    expect(report.itemsScanned).toBe(expected.length);
    expectEqualsTally(report.attributes, expected);
    expect(report.entities.map((e) => e.name).sort()).toEqual(['orders', 'users']);
  });
  it('falls back to the first page when every random segment is empty: a table of one item collection is not reported empty', async () => {
    // Found on CI: 60 items in 3 partitions, 40 random segments of 60, none of them holding an item.
    const table = await createTable(client, uniqueTableName('schone'), {
      partitionKey: ['PK', 'S'],
      sortKey: ['SK', 'S'],
    });
    const items = Array.from({ length: 60 }, (_, i) => ({
      PK: { S: 'USER#1' },
      SK: { S: `ORDER#${String(i).padStart(3, '0')}` },
      total: { N: String(i) },
    }));
    await putItems(client, table, items);
    // One partition key fills one of the 60 segments: pick two random segments that miss it.
    let full = -1;
    for (let segment = 0; segment < 60 && full < 0; segment++) {
      const page: { Count: number } = await rawDynamo(endpoint, 'Scan', {
        TableName: table,
        Segment: segment,
        TotalSegments: 60,
        Limit: 1,
      });
      if (page.Count > 0) full = segment;
    }
    expect(full).toBeGreaterThanOrEqual(0);
    const random = [() => 0, () => 0.999, () => 0.5].find((r) => !pickDistinct(2, 60, r).includes(full))!;
    const { report } = await analyzeSchema({
      client,
      table,
      mode: 'sample',
      scanId: 'schema-sample-empty',
      sampleSize: 2,
      segments: 2,
      signal: stillSignal(),
      random,
    });
    expect(report.itemsScanned).toBe(2);
    expect(report.attributes.find((a) => a.path === 'total')?.types).toEqual({ N: 2 });
    expect(report.draw.description).toMatch(
      /^2 items from the first page \(up to 2 items\) of the table: the 2 random Scan segments read first were empty/,
    );
  });
});

/** An uninterrupted full scan straight from DynamoDB Local: the report a cut scan's resume must equal. */
const scanWhole = (table: string, segments: number, pageSize: number) =>
  analyzeSchema({
    client,
    table,
    mode: 'full',
    scanId: `schema-whole-${table}`,
    segments,
    pageSize,
    signal: stillSignal(),
  });

/** Resumes a saved full scan as the app does: the checkpoint back from its JSON, same table and scan id. */
const resumeFrom = (c: DynamoDBClient, saved: SchemaCheckpoint, pageSize: number) =>
  analyzeSchema({
    client: c,
    table: saved.table,
    mode: 'full',
    scanId: saved.scanId,
    pageSize,
    resume: JSON.parse(JSON.stringify(saved)) as SchemaCheckpoint,
    signal: stillSignal(),
  });

describe('full scan: cancel and resume', () => {
  it('a cancelled scan resumes from its checkpoint to the report of an uninterrupted one', async () => {
    const table = await createTable(client, uniqueTableName('schr'), { partitionKey: ['id', 'S'] });
    const items = Array.from({ length: 1200 }, (_, i) => ({
      id: { S: `ITEM#${i}` },
      n: i % 4 === 0 ? { S: String(i) } : { N: String(i) },
      ...(i % 9 === 0 ? { tags: { SS: [`t${i % 5}`, 'x'] } } : {}),
    }));
    await putItems(client, table, items);
    const whole = await scanWhole(table, 3, 40);
    const controller = new AbortController();
    let saved: SchemaCheckpoint | undefined;
    await expect(
      analyzeSchema({
        client,
        table,
        mode: 'full',
        scanId: 'schema-cut-1',
        segments: 3,
        pageSize: 40,
        signal: controller.signal,
        progressEveryMs: 0,
        onProgress: (p) => {
          if (p.items >= 300) controller.abort();
        },
        onCheckpoint: (c) => {
          saved = c;
        },
      }),
    ).rejects.toThrow();
    expect(saved).toBeDefined();
    const cut = saved as SchemaCheckpoint;
    const readBefore = cut.segments.reduce((n, s) => n + s.state.items, 0);
    expect(readBefore).toBeGreaterThan(0);
    expect(readBefore).toBeLessThan(1200);
    const resumed = await resumeFrom(client, cut, 40);
    expect(resumed.complete).toBe(true);
    const strip = (r: SchemaReport) => ({
      attributes: r.attributes,
      entities: r.entities,
      items: r.itemsScanned,
    });
    expect(strip(resumed.report)).toEqual(strip(whole.report));
    expect(whole.report.attributes.find((a) => a.path === 'n')?.types).toEqual({ S: 300, N: 900 });
  });

  it('stops at a page broken inside an item with a sentence, and its resume counts no item twice', async () => {
    const table = await createTable(client, uniqueTableName('schb'), { partitionKey: ['id', 'S'] });
    // ~300-byte items, 200 to a page: a page is parsed in two chunks, and the second one breaks.
    const items = Array.from({ length: 600 }, (_, i) => ({
      id: { S: `ITEM#${i}` },
      n: { N: String(i) },
      pad: { S: 'x'.repeat(250) },
    }));
    await putItems(client, table, items);
    const whole = await scanWhole(table, 1, 200);
    const faulty = await startFaultyDynamo(endpoint);
    const viaFaulty = keepProtoNames(localClient(faulty.endpoint));
    try {
      faulty.script({ operation: 'Scan', fault: 'corrupt-item', after: 1, next: 1 });
      const saved: SchemaCheckpoint[] = [];
      await expect(
        analyzeSchema({
          client: viaFaulty,
          table,
          mode: 'full',
          scanId: 'schema-broken-1',
          segments: 1,
          pageSize: 200,
          checkpointEveryMs: 0,
          signal: stillSignal(),
          onCheckpoint: (c) => void saved.push(c),
        }),
      ).rejects.toThrow(
        // The wire walk names the byte; a path that parses items (findings, synthetic keys) the chunk.
        /^Unexpected DynamoDB response (at byte \d+: expected|between bytes \d+ and \d+: an item there is not valid JSON)/,
      );
      expect(faulty.refused('Scan')).toHaveLength(1);
      // The last checkpoint holds the first page whole, none of the broken one.
      const last = saved.at(-1) as SchemaCheckpoint;
      expect(last.segments[0]?.state.items).toBe(200);
      expect(last.pages).toBe(1);
      const resumed = await resumeFrom(viaFaulty, last, 200);
      expect(resumed.complete).toBe(true);
      expect(resumed.report.itemsScanned).toBe(600);
      expect(resumed.report.attributes).toEqual(whole.report.attributes);
    } finally {
      viaFaulty.destroy();
      await faulty.close();
    }
  });
});

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}
