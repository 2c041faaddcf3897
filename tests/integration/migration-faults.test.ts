import { BatchWriteItemCommand, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import type { OperationEvent } from '../../src/shared/ipc';
import type { MigrationReport, ScanSummary } from '../../src/shared/ipc/migration';
import { uniqueTableName } from '../support/dynamo-local';
import { faultyHarness, type FaultyHarness } from '../support/faulty-harness';

let h: FaultyHarness;
let dataDir: string;
const table = uniqueTableName('migfault');
const TOTAL = 600;
// 200 items/s over 2 segments: pages of 100 items, so a scan is a dozen Scan calls.
const scanInput = { connectionId: 'local', table, segments: 2, limit: { itemsPerSecond: 200 } };
let baseline: MigrationReport;

beforeAll(async () => {
  h = await faultyHarness(inject('dynamoEndpoint'), migrationHandlers);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-migfault-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  await h.client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    }),
  );
  for (let start = 0; start < TOTAL; start += 25) {
    const puts = Array.from({ length: 25 }, (_, j) => start + j).map((i) => ({
      PutRequest: {
        Item: {
          id: { S: `item-${String(i).padStart(4, '0')}` },
          ...(i % 7 === 0 ? { 'a.b': { N: String(i) }, a: { M: { b: { N: String(-i) } } } } : {}),
          createdAt: i % 3 === 0 ? { S: new Date(1.7e12 + i).toISOString() } : { N: String(1.7e12 + i) },
        },
      },
    }));
    await h.client.send(new BatchWriteItemCommand({ RequestItems: { [table]: puts } }));
  }
  baseline = await reportOf((await scan(scanInput)).scanId);
});
afterAll(async () => {
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});
// Each test starts like a new session: no adaptive-retry slowdown left over from the last one.
afterEach(() => h.ctx.clients.invalidate());

let seq = 0;

/** migration:scan as the Pre-flight view starts it, to its terminal event. */
async function scan(input: Record<string, unknown>, requestId = `req_migfault_${seq++}_${Date.now()}`) {
  const ended = h.waitFor(requestId);
  const started = await h.call<{ scanId: string }>('migration:scan', { ...input, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { events, last } = await ended;
  return { scanId: started.value.scanId, events, last };
}

async function reportOf(scanId: string): Promise<MigrationReport> {
  const report = await h.call<MigrationReport>('migration:report', { scanId });
  if (!report.ok) throw new Error(report.error.message);
  return report.value;
}

/** What a scan found, without what differs between any two runs. */
function findings(report: MigrationReport) {
  const {
    scanId: _id,
    startedAt: _started,
    finishedAt: _finished,
    consumedReadCapacity: _consumed,
    throttledRequests: _throttled,
    ...rest
  } = report;
  return rest;
}

const messages = (events: OperationEvent[]) =>
  events.flatMap((e) => (e.type === 'progress' ? [e.progress.message ?? ''] : []));

describe('the pre-flight scan when DynamoDB pushes back', () => {
  it('slows down when throttled, says so, and reports the same findings', async () => {
    expect(baseline).toMatchObject({ complete: true, itemsScanned: TOTAL, throttledRequests: 0 });
    const before = h.faulty.calls.length;
    h.faulty.script({ operation: 'Scan', fault: 'provisioned-throughput', every: 2, next: 4 });
    const { scanId, events, last } = await scan(scanInput);
    h.faulty.heal();
    expect(last.type).toBe('done');
    const scans = h.faulty.calls.slice(before).filter((c) => c.operation === 'Scan');
    expect(scans.filter((c) => c.fault)).toHaveLength(4);

    const report = await reportOf(scanId);
    expect(report.throttledRequests).toBe(4);
    expect(findings(report)).toEqual(findings(baseline));
    // The read limit halved at each throttle, and the progress line said so.
    const slowed = messages(events)
      .map((m) => /slowed to (\d+) items\/s/.exec(m)?.[1])
      .filter((rate): rate is string => rate !== undefined)
      .map(Number);
    expect(slowed.length).toBeGreaterThan(0);
    expect(Math.min(...slowed)).toBeLessThanOrEqual(100);
    expect(messages(events).at(-1)).toMatch(/throttled 4×/);
  });

  it('saves a checkpoint when credentials expire mid-scan, and the resumed scan reports what an uninterrupted one does', async () => {
    h.faulty.script({ operation: 'Scan', fault: 'expired-token', after: 3 });
    const failed = await scan(scanInput);
    h.faulty.heal();
    expect(failed.last.type).toBe('error');
    if (failed.last.type !== 'error') return;
    expect(failed.last.error.code).toBe('ExpiredTokenException');
    expect(failed.last.error.message).toMatch(/session has expired/);
    expect(failed.last.error.details?.cursor).toBe(failed.scanId);

    const listed = await h.call<ScanSummary[]>('migration:scans', { connectionId: 'local', table });
    const summary = listed.ok ? listed.value.find((s) => s.scanId === failed.scanId) : undefined;
    expect(summary?.state).toBe('failed');
    const partial = await reportOf(failed.scanId);
    expect(partial.complete).toBe(false);
    expect(partial.itemsScanned).toBeGreaterThan(0);
    expect(partial.itemsScanned).toBeLessThan(TOTAL);

    const resumed = await scan({ ...scanInput, resumeScanId: failed.scanId });
    expect(resumed.last.type).toBe('done');
    expect(resumed.scanId).toBe(failed.scanId);
    const report = await reportOf(failed.scanId);
    expect(findings(report)).toEqual(findings(baseline));
  });
});

describe('a scan stopped before its first checkpoint', () => {
  /** The scan's row in the Pre-flight list. */
  async function listed(scanId: string): Promise<ScanSummary | undefined> {
    const scans = await h.call<ScanSummary[]>('migration:scans', { connectionId: 'local', table });
    return scans.ok ? scans.value.find((s) => s.scanId === scanId) : undefined;
  }

  it('is cancelled when Cancel overtook its start call, and its resume reads the whole table', async () => {
    const requestId = `req_migfault_early_${Date.now()}`;
    // The view's Cancel reached main while migration:scan was still on its way.
    expect(h.ctx.operations.cancel(requestId)).toBe(false);
    const cancelled = await scan(scanInput, requestId);
    expect(cancelled.last).toMatchObject({ type: 'cancelled', cursor: cancelled.scanId });
    expect(await listed(cancelled.scanId)).toMatchObject({ state: 'cancelled', itemsScanned: 0 });

    const resumed = await scan({ ...scanInput, resumeScanId: cancelled.scanId });
    expect(resumed.last.type).toBe('done');
    expect(resumed.scanId).toBe(cancelled.scanId);
    expect(findings(await reportOf(cancelled.scanId))).toEqual(findings(baseline));
    expect(await listed(cancelled.scanId)).toMatchObject({ state: 'done', itemsScanned: TOTAL });
  });

  it('resumes from the start when DescribeTable was refused, and a finished scan is not resumed', async () => {
    h.faulty.script({ operation: 'DescribeTable', fault: 'expired-token', next: 1 });
    const failed = await scan(scanInput);
    h.faulty.heal();
    expect(failed.last.type === 'error' && failed.last.error.code).toBe('ExpiredTokenException');
    expect(await listed(failed.scanId)).toMatchObject({ state: 'failed', itemsScanned: 0 });

    const resumed = await scan({ ...scanInput, resumeScanId: failed.scanId });
    expect(resumed.last.type).toBe('done');
    expect(findings(await reportOf(failed.scanId))).toEqual(findings(baseline));

    const again = await h.call('migration:scan', {
      ...scanInput,
      requestId: `req_migfault_again_${Date.now()}`,
      resumeScanId: failed.scanId,
    });
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'InvalidInput',
        message: 'That scan finished; start a new scan to read the table again.',
      },
    });
  });
});
