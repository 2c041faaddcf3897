import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type MigrationScanCheckpoint, runMigrationScan } from '../../src/main/migration/scan-migration';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import {
  createOrdersTable,
  expectedFindings,
  pointDynamoose,
  writeOrders,
  writeTraps,
} from '../support/migration-fixture';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
afterAll(() => client.destroy());

describe('migration scan of a table written by dynamoose 4.x', () => {
  const table = uniqueTableName('mig');
  const COUNT = 60;

  beforeAll(async () => {
    pointDynamoose(endpoint);
    await createOrdersTable(client, table);
    await writeOrders(table, COUNT);
    await writeTraps(client, table);
  });

  it('reports the exact dotted attributes and Date storage that were written', async () => {
    const expected = expectedFindings(COUNT);
    const progress: number[] = [];
    const { report, complete } = await runMigrationScan({
      client,
      table,
      scanId: 'scan-test-1',
      segments: 4,
      signal: new AbortController().signal,
      progressEveryMs: 0,
      onProgress: (p) => progress.push(p.items),
    });
    expect(complete).toBe(true);
    expect(report.itemsScanned).toBe(expected.items);
    expect(report.dottedAttributes).toEqual([expected.addressCity, expected.statusCode]);
    const byPath = Object.fromEntries(report.dateAttributes.map((d) => [d.path, d]));
    expect(Object.keys(byPath).sort()).toEqual([
      'createdAt',
      'gsiDay',
      'history[0].at',
      'profile.birthday',
      'updatedAt',
    ]);
    expect(byPath.createdAt).toEqual(expected.createdAt);
    expect(byPath['history[0].at']).toEqual(expected.history);
    expect(byPath['profile.birthday']).toEqual(expected.birthday);
    expect(byPath.gsiDay).toEqual(expected.gsiDay);
    expect(byPath.updatedAt).toEqual(expected.updatedAt);
    expect(report.verdict.needsFix).toBe(true);
    expect(report.verdict.mustFix.join('\n')).toMatch(/address\.city[\s\S]*status\.code[\s\S]*createdAt/);
    expect(report.verdict.settings.join('\n')).toMatch(/history\[0\]\.at[\s\S]*profile\.birthday/);
    expect(report.consumedReadCapacity).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(expected.items);
  });
});

describe('cancel and resume', () => {
  it('gives the same report as an uninterrupted scan', async () => {
    const table = await createTable(client, uniqueTableName('migr'), { partitionKey: ['id', 'S'] });
    const total = 1500;
    const items = Array.from({ length: total }, (_, i) => ({
      id: { S: `item-${i}` },
      ...(i % 7 === 0 ? { 'a.b': { N: String(i) }, a: { M: { b: { N: String(i % 2 ? i : -i) } } } } : {}),
      createdAt: i % 3 === 0 ? { S: new Date(1.7e12 + i).toISOString() } : { N: String(1.7e12 + i) },
    }));
    await putItems(client, table, items);
    const whole = await runMigrationScan({
      client,
      table,
      scanId: 'whole-1',
      segments: 3,
      pageSize: 40,
      signal: new AbortController().signal,
    });

    const controller = new AbortController();
    let saved: MigrationScanCheckpoint | undefined;
    const cancelled = runMigrationScan({
      client,
      table,
      scanId: 'part-1',
      segments: 3,
      pageSize: 40,
      signal: controller.signal,
      progressEveryMs: 0,
      onProgress: (p) => {
        if (p.items >= 400) controller.abort();
      },
      onCheckpoint: (c) => {
        saved = c;
      },
    });
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(saved).toBeDefined();
    const savedItems = saved?.segments.reduce((n, s) => n + s.state.items, 0) ?? 0;
    expect(savedItems).toBeGreaterThanOrEqual(400);
    expect(savedItems).toBeLessThan(total);

    const resumed = await runMigrationScan({
      client,
      table,
      scanId: 'part-1',
      pageSize: 40,
      resume: JSON.parse(JSON.stringify(saved)) as MigrationScanCheckpoint,
      signal: new AbortController().signal,
    });
    expect(resumed.complete).toBe(true);
    const strip = (r: typeof whole.report) => ({
      ...r,
      scanId: '',
      startedAt: '',
      finishedAt: '',
      consumedReadCapacity: 0,
    });
    expect(strip(resumed.report)).toEqual(strip(whole.report));
    expect(whole.report.itemsScanned).toBe(total);
    expect(whole.report.dottedAttributes[0]).toMatchObject({ name: 'a.b', items: Math.ceil(total / 7) });
  });
});

describe('keys and pacing', () => {
  it('reports binary and number keys in plain JSON, and pages by the read limit', async () => {
    const table = await createTable(client, uniqueTableName('migbin'), {
      partitionKey: ['id', 'B'],
      sortKey: ['n', 'N'],
    });
    const total = 120;
    const items = Array.from({ length: total }, (_, i) => ({
      id: { B: Uint8Array.from([i, 255 - i]) },
      // 2^53 + i: a key number no JS number can hold exactly
      n: { N: (9007199254740992n + BigInt(i)).toString() },
      ...(i === 7 ? { 'x.y': { S: 'shadow' } } : {}),
    }));
    await putItems(client, table, items);
    let pages = 0;
    const { report } = await runMigrationScan({
      client,
      table,
      scanId: 'scan-bin-1',
      segments: 2,
      // 40 items/s over 2 segments: pages of 20 items, so the limit is kept page by page.
      limit: { itemsPerSecond: 40 },
      signal: new AbortController().signal,
      progressEveryMs: 0,
      onProgress: (p) => (pages = p.pages),
    });
    expect(report.itemsScanned).toBe(total);
    expect(pages).toBeGreaterThanOrEqual(total / 20);
    expect(report.dottedAttributes).toEqual([
      expect.objectContaining({
        name: 'x.y',
        items: 1,
        parentMissing: 1,
        sampleKeys: [{ id: Buffer.from([7, 248]).toString('base64'), n: '9007199254740999' }],
      }),
    ]);
  });
});
