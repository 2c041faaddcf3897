import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import type { FixPlanSummary, FixResult, MigrationReport } from '../../src/shared/ipc/migration';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { uniqueTableName } from '../support/dynamo-local';
import {
  createOrdersTable,
  keyOf,
  ordersModels,
  pointDynamoose,
  writeOrders,
  writeTraps,
} from '../support/migration-fixture';

const endpoint = inject('dynamoEndpoint');
let h: ItemsHarness;
let dataDir: string;
const table = uniqueTableName('migfix');
const COUNT = 40;
const all = Array.from({ length: COUNT }, (_, i) => i);

beforeAll(async () => {
  h = itemsHarness(endpoint, migrationHandlers);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-migration-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  pointDynamoose(endpoint);
  await createOrdersTable(h.client, table);
  await writeOrders(table, COUNT);
  await writeTraps(h.client, table);
});
afterAll(async () => {
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

let seq = 0;
const rid = () => `req_migfix_${seq++}_${Date.now()}`;

async function operation<T>(
  channel: string,
  payload: Record<string, unknown>,
  onProgress?: (requestId: string) => void,
) {
  const requestId = rid();
  const done = h.waitFor(requestId);
  let progressed = false;
  const stop = h.ctx.events.subscribe((e) => {
    if (e.requestId === requestId && e.type === 'progress' && !progressed) {
      progressed = true;
      onProgress?.(requestId);
    }
  });
  const started = await h.call<Record<string, string>>(channel, { ...payload, requestId });
  if (!started.ok) {
    stop();
    return { started, last: undefined, value: undefined as T | undefined };
  }
  const { last } = await done;
  stop();
  return { started, last, value: (last.type === 'done' ? last.value : undefined) as T | undefined };
}

async function scanReport(): Promise<MigrationReport> {
  const { started, last } = await operation('migration:scan', { connectionId: 'local', table, segments: 2 });
  expect(last?.type).toBe('done');
  const scanId = (started as { ok: true; value: { scanId: string } }).value.scanId;
  const report = await h.call<MigrationReport>('migration:report', { scanId });
  if (!report.ok) throw new Error(report.error.message);
  return report.value;
}

describe('the fix, never blind', () => {
  it('plans, refuses read-only, skips what a concurrent writer changed, resumes, and leaves a clean table', async () => {
    const before = await scanReport();
    expect(before.dottedAttributes.map((d) => d.name)).toEqual(['address.city', 'status.code']);

    // Dry run on a read-only connection: allowed (it only reads), and marked so.
    const dry = await operation<FixPlanSummary>('migration:fixPlan', {
      connectionId: 'ro',
      table,
      policy: 'shadow-wins',
      convertDates: true,
      segments: 2,
    });
    const plan = dry.value as FixPlanSummary;
    const shadowed = all.filter((i) => i % 4 === 0);
    const sameAsNested = shadowed.filter((i) => i % 5 !== 0 && i % 8 === 0);
    const conversions = all.filter((i) => i % 3 === 0).length * 2 + all.filter((i) => i % 3 === 1).length;
    expect(plan).toMatchObject({
      readOnly: true,
      itemsScanned: COUNT + 4,
      updates: all.filter((i) => i % 4 === 0 || i % 3 !== 2).length,
      moves: shadowed.length - sameAsNested.length,
      removals: sameAsNested.length,
      dateConversions: conversions,
      review: 1,
    });
    expect(plan.reviewSamples).toEqual([
      {
        key: { pk: 'trap#2', sk: 2 },
        attribute: 'status.code',
        reason: 'status is not a map, so the nested path cannot be created',
      },
    ]);
    for (const request of plan.sampleRequests) {
      expect(request.ConditionExpression).not.toBe('');
      // A dotted name never appears inline: only through #names.
      expect(request.UpdateExpression).not.toContain('address.city');
    }
    const refused = await h.call('migration:fixRun', {
      connectionId: 'ro',
      planId: plan.planId,
      requestId: rid(),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ReadOnlyConnection' } });

    const { value: planned } = await operation<FixPlanSummary>('migration:fixPlan', {
      connectionId: 'local',
      table,
      policy: 'shadow-wins',
      convertDates: true,
    });
    const planId = (planned as FixPlanSummary).planId;

    // A concurrent writer changes one planned item after the dry run saw it.
    await ordersModels(table).patch.update(keyOf(4), { $SET: { 'address.city': 'Sevilla' } } as never);

    // Run slowly and cancel at the first progress; then resume at full speed.
    const cancelled = await operation<FixResult>(
      'migration:fixRun',
      { connectionId: 'local', planId, writesPerSecond: 3 },
      (requestId) => {
        h.ctx.operations.cancel(requestId);
      },
    );
    expect(cancelled.last?.type).toBe('cancelled');
    const partial = await h.call<{ result: FixResult }>('migration:fixStatus', { planId });
    const partResult = (partial as { ok: true; value: { result: FixResult } }).value.result;
    expect(partResult.state).toBe('cancelled');
    expect(partResult.written + partResult.skippedChanged).toBeLessThan((planned as FixPlanSummary).updates);

    const { value: result } = await operation<FixResult>('migration:fixRun', {
      connectionId: 'local',
      planId,
      writesPerSecond: 1000,
    });
    expect(result).toMatchObject({
      state: 'done',
      written: (planned as FixPlanSummary).updates - 1,
      skippedChanged: 1,
      failed: 0,
      changedSamples: [keyOf(4)],
    });

    // The concurrent writer's value is intact.
    const item4 = await h.client.send(
      new GetItemCommand({ TableName: table, Key: { pk: { S: keyOf(4).pk }, sk: { N: '4' } } }),
    );
    expect(item4.Item?.['address.city']).toEqual({ S: 'Sevilla' });
    expect(item4.Item?.address?.M?.city).toEqual({ S: 'Madrid' });
    // A moved item: nested path holds the shadow's value, shadow gone, Date now epoch ms.
    const item0 = await h.client.send(
      new GetItemCommand({ TableName: table, Key: { pk: { S: keyOf(0).pk }, sk: { N: '0' } } }),
    );
    expect(item0.Item?.['address.city']).toBeUndefined();
    expect(item0.Item?.address).toEqual({ M: { city: { S: 'Valencia' } } });
    expect(item0.Item?.createdAt).toEqual({ N: String(Date.UTC(2024, 0, 5, 10, 0, 0)) });
    // dynamoose (millisecond storage) still reads the converted Date.
    const read = await ordersModels(table).millis.get(keyOf(0));
    expect((read as unknown as { createdAt: Date }).createdAt.getTime()).toBe(Date.UTC(2024, 0, 5, 10, 0, 0));

    const after = await scanReport();
    expect(after.dottedAttributes).toMatchObject([
      { name: 'address.city', items: 1, differsFromNested: 1 },
      { name: 'status.code', items: 1, parentNotMap: 1 },
    ]);
    const createdAt = after.dateAttributes.find((d) => d.path === 'createdAt');
    expect(createdAt).toMatchObject({
      iso: 0,
      epochMillis: all.filter((i) => i % 3 !== 2).length,
      epochSeconds: all.filter((i) => i % 3 === 2).length,
    });
    // Item 4 was skipped whole (one conditional UpdateItem per item), so its birthday is still ISO.
    expect(after.dateAttributes.find((d) => d.path === 'profile.birthday')).toMatchObject({
      iso: 1,
      sampleKeysByKind: { iso: [keyOf(4)] },
    });
  });
});
