import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { resultSetHandlers } from '../../src/main/ipc/handlers/resultsets';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { OperationEvent } from '../../src/shared/ipc';
import type { ReadSpec } from '../../src/shared/ipc/query';
import { newRequestToken } from '../../src/shared/dynamo/write-plan';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';

// Writes through the real handlers against DynamoDB Local, and the result sets that hold the
// items: every row must equal what DynamoDB Local stores (read back with GetItem), at once.
let h: ItemsHarness;
const published: OperationEvent[] = [];
beforeAll(() => {
  h = itemsHarness(inject('dynamoEndpoint'), { ...queryHandlers, ...resultSetHandlers, ...bulkHandlers });
  h.ctx.events.subscribe((event) => {
    if (event.type === 'resultsets') published.push(event);
  });
});
afterAll(() => h.close());

type Window = { total: number; rows: Item[]; marks?: { at: number; mark: string }[] };

async function value<T>(channel: string, payload: unknown): Promise<T> {
  const envelope = await h.call<T>(channel, payload);
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
  return envelope.value;
}

async function read(table: string, spec: ReadSpec): Promise<string> {
  const requestId = `read-${Math.random().toString(36).slice(2, 10)}`;
  const done = h.waitFor(requestId);
  const { resultSetId } = await value<{ resultSetId: string }>('query:start', {
    connectionId: 'local',
    table,
    requestId,
    spec,
    maxItems: 1000,
  });
  await done;
  return resultSetId;
}

const window = (resultSetId: string) =>
  value<Window>('resultsets:window', { resultSetId, offset: 0, limit: 1000 });

async function stored(table: string, key: Item): Promise<Item | null> {
  const response = await h.client.send(
    new GetItemCommand({ TableName: table, Key: toSdkItem(key), ConsistentRead: true }),
  );
  return response.Item ? fromSdkItem(response.Item) : null;
}

describe('writes show in the result sets that hold the items', () => {
  it('save, create, delete, commit and bulk update land in a scan and a query, equal to what is stored', async () => {
    const table = await createItemsTable(h.client);
    const items: Item[] = Array.from({ length: 6 }, (_, i) => ({
      pk: { S: `u#${i}` },
      group: { S: i % 2 === 0 ? 'even' : 'odd' },
      total: { N: String(70 + i) },
    }));
    for (const item of items) await value('items:create', { connectionId: 'local', table, item });
    const scan = await read(table, { mode: 'scan' });
    const evens = await read(table, {
      mode: 'scan',
      filter: {
        kind: 'group',
        join: 'AND',
        items: [{ kind: 'condition', path: ['group'], op: '=', value: { S: 'even' } }],
      },
    });
    const rowOf = async (resultSetId: string, pk: string) =>
      (await window(resultSetId)).rows.find((row) => 'S' in row.pk! && row.pk.S === pk);

    // A save: the row shows what UpdateItem returned, marked changed.
    const seen = (await rowOf(scan, 'u#4'))!;
    await value('items:update', {
      connectionId: 'local',
      table,
      seen,
      desired: { ...seen, total: { N: '76' } },
    });
    expect(await rowOf(scan, 'u#4')).toEqual(await stored(table, { pk: { S: 'u#4' } }));
    expect(await rowOf(evens, 'u#4')).toEqual(await stored(table, { pk: { S: 'u#4' } }));
    const scanned = await window(scan);
    const at = scanned.rows.findIndex((x) => 'S' in x.pk! && x.pk.S === 'u#4');
    expect(scanned.marks).toEqual([{ at, mark: 'changed' }]);
    expect(published.at(-1)).toMatchObject({ type: 'resultsets' });

    // A save that moves the item out of the filter: the filtered read no longer holds it.
    const even2 = (await rowOf(evens, 'u#2'))!;
    await value('items:update', {
      connectionId: 'local',
      table,
      seen: even2,
      desired: { ...even2, group: { S: 'odd' } },
    });
    expect(await rowOf(evens, 'u#2')).toBeUndefined();
    expect((await rowOf(scan, 'u#2'))?.group).toEqual({ S: 'odd' });

    // A create joins both reads it matches; a delete leaves.
    await value('items:create', {
      connectionId: 'local',
      table,
      item: { pk: { S: 'u#999' }, group: { S: 'even' } },
    });
    expect((await window(scan)).total).toBe(7);
    expect((await window(evens)).rows.map((r) => ('S' in r.pk! ? r.pk.S : ''))).toContain('u#999');
    const gone = (await rowOf(scan, 'u#0'))!;
    await value('items:delete', { connectionId: 'local', table, key: { pk: gone.pk }, expected: gone });
    expect(await rowOf(scan, 'u#0')).toBeUndefined();
    expect(await rowOf(evens, 'u#0')).toBeUndefined();

    // A commit of two staged changes (a transaction, which returns no attributes).
    const one = (await rowOf(scan, 'u#1'))!;
    const three = (await rowOf(scan, 'u#3'))!;
    await value('items:commit', {
      connectionId: 'local',
      table,
      token: 'gridtruthcommit0001',
      changes: [
        { id: 'a', seen: one, desired: { ...one, total: { N: '1001' } } },
        { id: 'b', seen: three, desired: null },
      ],
    });
    expect(await rowOf(scan, 'u#1')).toEqual(await stored(table, { pk: { S: 'u#1' } }));
    expect(await rowOf(scan, 'u#3')).toBeUndefined();

    // A bulk update of the whole scan: every row equals what is stored once the job ends.
    const requestId = 'bulk-grid-truth-01';
    const done = h.waitFor(requestId);
    await value('bulk:start', {
      connectionId: 'local',
      table,
      requestId,
      source: { resultSetId: scan },
      action: { type: 'update', set: [{ path: ['flag'], value: { S: 'yes' } }], remove: [] },
      conditionOnSeen: true,
    });
    await done;
    const after = await window(scan);
    expect(after.total).toBe(5);
    for (const row of after.rows) expect(row).toEqual(await stored(table, { pk: row.pk! }));
  });

  it('refreshes a row with the stored item when a save finds it changed by someone else', async () => {
    const table = await createItemsTable(h.client);
    await value('items:create', { connectionId: 'local', table, item: { pk: { S: 'k' }, v: { N: '1' } } });
    const scan = await read(table, { mode: 'scan' });
    const [seen] = (await window(scan)).rows;
    await value('items:update', { connectionId: 'local', table, seen, desired: { ...seen, v: { N: '2' } } });
    // Someone else's write, then a save from the stale copy: the conflict's stored item shows.
    const envelope = await h.call('items:update', {
      connectionId: 'local',
      table,
      seen,
      desired: { ...seen, v: { N: '3' } },
    });
    expect(envelope.ok).toBe(false);
    const shown = await window(scan);
    expect(shown.rows).toEqual([await stored(table, { pk: { S: 'k' } })]);
    expect(shown.marks).toBeUndefined();
  });

  it('shows what DynamoDB stored after a commit, not the plan, where the two differ (1.50 is stored as 1.5)', async () => {
    const table = await createItemsTable(h.client);
    const scan = await read(table, { mode: 'scan' });
    const created = (pk: string) => ({
      id: pk,
      seen: null,
      desired: { pk: { S: pk }, price: { N: '1.50' } },
    });
    // Two changes go as one transaction, which returns no attributes; one goes as a single put.
    await value('items:commit', {
      connectionId: 'local',
      table,
      changes: [created('t1'), created('t2')],
      token: newRequestToken(),
    });
    await value('items:commit', {
      connectionId: 'local',
      table,
      changes: [created('s1')],
      token: newRequestToken(),
    });
    const rows = (await window(scan)).rows;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.price).toEqual({ N: '1.5' });
      expect(row).toEqual(await stored(table, { pk: row.pk! }));
    }
  });
});
