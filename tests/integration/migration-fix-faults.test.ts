import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import { journalPairs } from '../../src/main/journal/journal-files';
import type { JournalEntry, UndoReport } from '../../src/shared/ipc/journal';
import { canonical, rawDynamo, rawGetItem } from '../support/raw-dynamo';
import type { OperationEvent } from '../../src/shared/ipc';
import type { FixPlanSummary, FixResult } from '../../src/shared/ipc/migration';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { faultyHarness, type FaultyHarness } from '../support/faulty-harness';

// The fix's UpdateItems through the app's own client (adaptive retry, five attempts) against a
// server in front of DynamoDB Local that answers some of them with DynamoDB's real throttling.
let h: FaultyHarness;
let dataDir: string;
const table = uniqueTableName('fixfault');
const TOTAL = 60;
const WRITES_PER_SECOND = 200;

beforeAll(async () => {
  h = await faultyHarness(inject('dynamoEndpoint'), { ...migrationHandlers, ...journalHandlers });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-fixfault-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  await createTable(h.client, table, { partitionKey: ['id', 'S'] });
  await putItems(
    h.client,
    table,
    Array.from({ length: TOTAL }, (_, i) => ({
      id: { S: `item-${String(i).padStart(3, '0')}` },
      'a.b': { N: String(i) },
    })),
  );
});
afterAll(async () => {
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

let seq = 0;

/** A migration operation as the Pre-flight view starts it, to its terminal event. */
async function operation(
  channel: string,
  input: Record<string, unknown>,
  onEvent?: (e: OperationEvent) => void,
) {
  const requestId = `req_fixfault_${seq++}_${Date.now()}`;
  const stop = h.ctx.events.subscribe((e) => {
    if (e.requestId === requestId) onEvent?.(e);
  });
  const ended = h.waitFor(requestId);
  const started = await h.call(channel, { ...input, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { events, last } = await ended;
  stop();
  return { events, last };
}

async function fixResult(planId: string): Promise<FixResult> {
  const status = await h.call<{ result: FixResult | null }>('migration:fixStatus', { planId });
  if (!status.ok || !status.value.result) throw new Error('no fix result');
  return status.value.result;
}

const messages = (events: OperationEvent[]) =>
  events.flatMap((e) => (e.type === 'progress' ? [e.progress.message ?? ''] : []));

describe('the fix when DynamoDB throttles its writes', () => {
  it('slows down, says so, and its result counts every throttled write, across a resume', async () => {
    const planned = await operation('migration:fixPlan', { connectionId: 'local', table, policy: 'review' });
    if (planned.last.type !== 'done') throw new Error('the plan did not finish');
    const plan = planned.last.value as FixPlanSummary;
    expect(plan.updates).toBe(TOTAL);
    const run = { connectionId: 'local', planId: plan.planId, writesPerSecond: WRITES_PER_SECOND };
    const refusedBefore = h.faulty.refused('UpdateItem').length;

    // The SDK retries these by itself, so the fix's own code never sees the errors; cancel at
    // the first throttle the fix hears of.
    h.faulty.script({ operation: 'UpdateItem', fault: 'provisioned-throughput', every: 2, next: 2 });
    const first = await operation('migration:fixRun', run, (e) => {
      if (e.type === 'progress' && /throttled/.test(e.progress.message ?? ''))
        h.ctx.operations.cancel(e.requestId);
    });
    h.faulty.heal();
    expect(first.last.type).toBe('cancelled');
    const stopped = await fixResult(plan.planId);
    const refusedFirst = h.faulty.refused('UpdateItem').length - refusedBefore;
    expect(refusedFirst).toBeGreaterThan(0);
    expect(stopped).toMatchObject({ state: 'cancelled', failed: 0, throttledRequests: refusedFirst });
    expect(stopped.written).toBeLessThan(TOTAL);

    h.faulty.script({ operation: 'UpdateItem', fault: 'throttling', next: 2 });
    const resumed = await operation('migration:fixRun', run);
    h.faulty.heal();
    expect(resumed.last.type).toBe('done');
    const refusedAll = h.faulty.refused('UpdateItem').length - refusedBefore;
    expect(refusedAll).toBe(refusedFirst + 2);
    const result = await fixResult(plan.planId);
    expect(result).toMatchObject({ state: 'done', written: TOTAL, failed: 0, throttledRequests: refusedAll });

    // The write limit halved at each throttle (the two refusals came back to back), and the
    // progress line said so.
    const slowed = messages(resumed.events)
      .map((m) => /slowed to ([\d.]+) WCU\/s/.exec(m)?.[1])
      .filter((rate): rate is string => rate !== undefined)
      .map(Number);
    expect(slowed.length).toBeGreaterThan(0);
    expect(Math.min(...slowed)).toBeLessThanOrEqual(WRITES_PER_SECOND / 4);
    expect(messages(resumed.events).at(-1)).toMatch(new RegExp(`throttled ${refusedAll}×`));

    // Every item was written once despite the refusals: nothing dotted is left.
    const items = await h.client.send(new ScanCommand({ TableName: table }));
    expect(items.Items).toHaveLength(TOTAL);
    for (const item of items.Items ?? []) {
      expect(item['a.b']).toBeUndefined();
      expect(item.a?.M?.b?.N).toBe(item.id!.S!.replace(/^item-0*(\d)/, '$1'));
    }
  });

  it('journals what its own UpdateItem left, never a write that lands just after it', async () => {
    const shadowed = uniqueTableName('fixafter');
    await createTable(h.client, shadowed, { partitionKey: ['id', 'S'] });
    const key = { id: { S: 'order-1' } };
    const original = { ...key, 'address.city': { S: 'Valencia' }, address: { M: { city: { S: 'Madrid' } } } };
    await putItems(h.client, shadowed, [original]);
    const upstream = inject('dynamoEndpoint');
    const planned = await operation('migration:fixPlan', {
      connectionId: 'local',
      table: shadowed,
      policy: 'shadow-wins',
    });
    if (planned.last.type !== 'done') throw new Error('the plan did not finish');
    const plan = planned.last.value as FixPlanSummary;
    expect(plan.updates).toBe(1);

    // Someone else's write lands after the fix's UpdateItem was applied, before its answer
    // reaches DynoTable: a read-back would take their note for the fix's own.
    h.faulty.script({
      operation: 'UpdateItem',
      fault: 'hold',
      next: 1,
      beforeAnswer: async () => {
        await rawDynamo(upstream, 'UpdateItem', {
          TableName: shadowed,
          Key: key,
          UpdateExpression: 'SET note = :n',
          ExpressionAttributeValues: { ':n': { S: 'theirs' } },
        });
      },
    });
    const run = await operation('migration:fixRun', { connectionId: 'local', planId: plan.planId });
    expect(run.last.type).toBe('done');
    const stored = await rawGetItem(upstream, shadowed, key);
    expect(stored).toMatchObject({ note: { S: 'theirs' }, address: { M: { city: { S: 'Valencia' } } } });

    const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', {
      connectionId: 'local',
      table: shadowed,
    });
    if (!listed.ok) throw new Error(listed.error.message);
    const [entry] = listed.value.entries;
    expect(entry).toMatchObject({ source: 'fix', count: 1 });
    const pairs = [];
    for await (const chunk of journalPairs(h.ctx.dataDir, 'local', entry!.id)) pairs.push(...chunk);
    // What the fix left, from its own answer: the moved city, without their note.
    const { note: _theirs, ...fixLeft } = stored!;
    expect(canonical(pairs[0]?.after)).toBe(canonical(fixLeft));
    expect(canonical(pairs[0]?.before)).toBe(canonical(original));

    // So undo sees their change and leaves the item alone instead of erasing their note.
    const undone = await operation('journal:undo', { connectionId: 'local', entryId: entry!.id });
    if (undone.last.type !== 'done') throw new Error('undo did not finish');
    expect(undone.last.value as UndoReport).toMatchObject({ restored: 0, conflicts: 1 });
    expect(canonical(await rawGetItem(upstream, shadowed, key))).toBe(canonical(stored));
  });
});
