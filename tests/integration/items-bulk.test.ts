import { PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { BulkReport } from '../../src/shared/ipc/items';
import { failure } from '../support/items-assert';
import { putItems } from '../support/dynamo-tables';
import { createItemsTable, itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';

let h: ItemsHarness;
beforeAll(() => {
  h = itemsHarness(inject('dynamoEndpoint'), { ...queryHandlers, ...bulkHandlers });
});
afterAll(() => h.close());

async function seed(table: string, count: number): Promise<Item[]> {
  const items = Array.from({ length: count }, (_, i) => ({
    pk: { S: `k${String(i).padStart(5, '0')}` },
    v: { N: String(i) },
    status: { S: 'open' },
  }));
  await putItems(
    h.client,
    table,
    items.map((item) => toSdkItem(item)),
  );
  return items;
}

async function all(table: string): Promise<Item[]> {
  const out: Item[] = [];
  let start: Record<string, never> | undefined;
  do {
    const page = await h.client.send(
      new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    out.push(...(page.Items ?? []).map(fromSdkItem));
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return out;
}

async function scanInto(table: string): Promise<string> {
  return (await runQuery(h, { table, spec: { mode: 'scan' }, maxItems: 100_000 })).resultSetId;
}

describe('bulk delete and update', () => {
  it('previews, asks for the typed name, then deletes every queried item', async () => {
    const table = await createItemsTable(h.client);
    await seed(table, 30);
    const resultSetId = await scanInto(table);
    const payload = { connectionId: 'local', table, source: { resultSetId }, action: { type: 'delete' } };
    const preview = await h.call<{
      count: number;
      sample: Item[];
      needsConfirmation: boolean;
      request: { operation: string };
    }>('bulk:preview', payload);
    if (!preview.ok) throw new Error(preview.error.message);
    expect(preview.value).toMatchObject({
      count: 30,
      needsConfirmation: true,
      request: { operation: 'DeleteItem' },
    });
    expect(preview.value.sample).toHaveLength(5);
    failure(
      await h.call('bulk:start', { ...payload, requestId: 'bulk_unconfirmed' }),
      'ConfirmationRequired',
    );
    const done = h.waitFor('bulk_confirmed');
    expect(
      await h.call('bulk:start', { ...payload, requestId: 'bulk_confirmed', confirmTable: table }),
    ).toEqual({ ok: true, value: { started: true } });
    const { last } = await done;
    expect(last).toMatchObject({ type: 'done', value: { succeeded: 30, conflicts: 0, failed: 0 } });
    expect(await all(table)).toEqual([]);
  });

  it('updates selected items, leaving alone (and reporting) one that changed after it was read', async () => {
    const table = await createItemsTable(h.client);
    const items = await seed(table, 6);
    const changed = { ...items[2], status: { S: 'touched by someone else' } } as Item;
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(changed) }));
    const done = h.waitFor('bulk_update');
    const started = await h.call('bulk:start', {
      connectionId: 'local',
      table,
      requestId: 'bulk_update',
      source: { items },
      action: { type: 'update', set: [{ path: ['status'], value: { S: 'archived' } }], remove: [['v']] },
    });
    expect(started.ok).toBe(true);
    const { last } = await done;
    const report = (last.type === 'done' ? last.value : undefined) as BulkReport;
    expect(report).toMatchObject({ succeeded: 5, conflicts: 1, failed: 0 });
    expect(report.failures).toEqual([
      {
        key: { pk: items[2]?.pk },
        code: 'ConditionalCheckFailedException',
        message: expect.any(String) as unknown,
      },
    ]);
    const stored = await all(table);
    expect(stored.map((i) => (i.status as { S: string }).S).sort()).toEqual([
      ...Array<string>(5).fill('archived'),
      'touched by someone else',
    ]);
    expect(stored.find((i) => (i.status as { S: string }).S === 'archived')?.v).toBeUndefined();
  });

  it('refuses to update key attributes, and stops when cancelled, keeping what was done', async () => {
    const table = await createItemsTable(h.client);
    const keyUpdate = await h.call('bulk:preview', {
      connectionId: 'local',
      table,
      source: { items: [{ pk: { S: 'x' } }] },
      action: { type: 'update', set: [{ path: ['pk'], value: { S: 'y' } }], remove: [] },
    });
    expect(failure(keyUpdate, 'InvalidInput').message).toMatch(/part of the key/);
    await seed(table, 1200);
    const resultSetId = await scanInto(table);
    const requestId = 'bulk_cancel';
    const stop = h.ctx.events.subscribe((event) => {
      if (event.requestId === requestId && event.type === 'progress') h.ctx.operations.cancel(requestId);
    });
    const done = h.waitFor(requestId);
    await h.call('bulk:start', {
      connectionId: 'local',
      table,
      requestId,
      source: { resultSetId },
      action: { type: 'delete' },
      confirmTable: table,
    });
    const { last } = await done;
    stop();
    expect(last.type).toBe('cancelled');
    const remaining = (await all(table)).length;
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(1200);
  });
});
