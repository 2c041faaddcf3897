import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../../src/main/dynamo/marshal';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { keyOf } from '../../../src/shared/dynamo/validate-item';
import { expectSameItem, failure } from '../../support/items-assert';
import { createItemsTable } from '../../support/items-context';
import type { RecordedCall } from '../../support/faulty-dynamo';
import { faultyHarness, type FaultyHarness } from '../../support/faulty-harness';

const KEYS = { partitionKey: { name: 'pk', type: 'S' as const } };

let h: FaultyHarness;
beforeAll(async () => {
  h = await faultyHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());
// Each test starts like a new session: no adaptive-retry slowdown left over from the last one.
afterEach(() => h.ctx.clients.invalidate());

/** What DynamoDB Local holds under the item's key, read past the faulty server. */
async function stored(table: string, item: Item): Promise<Item | null> {
  const response = await h.client.send(
    new GetItemCommand({ TableName: table, Key: toSdkItem(keyOf(item, KEYS)), ConsistentRead: true }),
  );
  return response.Item ? fromSdkItem(response.Item) : null;
}

async function tableWith(item: Item): Promise<string> {
  const table = await createItemsTable(h.client);
  await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(item) }));
  return table;
}

const ofTable = (calls: RecordedCall[], table: string) => calls.filter((c) => c.body.TableName === table);

const save = (table: string, seen: Item, desired: Item) =>
  h.call<{ item: Item }>('items:update', { connectionId: 'local', table, seen, desired });

describe('saving an item when DynamoDB refuses', () => {
  it('tells a conflict, throttling and an expired credential apart, in three sentences, writing nothing', async () => {
    const seen: Item = { pk: { S: 'acct#1' }, balance: { N: '10' } };
    const theirs: Item = { ...seen, balance: { N: '12' } };
    const table = await tableWith(theirs);
    const mine: Item = { ...seen, balance: { N: '20' } };

    const conflict = failure(await save(table, seen, mine), 'ConditionalCheckFailedException');
    expectSameItem(conflict.details?.current as Item, theirs);

    h.faulty.script({ operation: 'UpdateItem', fault: 'provisioned-throughput' });
    const throttled = failure(await save(table, theirs, mine), 'ProvisionedThroughputExceededException');
    h.faulty.heal();
    expect(throttled.retryable).toBe(true);
    // Refused every time, so it was sent more than once and never reached the table.
    expect(ofTable(h.faulty.refused('UpdateItem'), table).length).toBeGreaterThan(1);

    h.faulty.script({ fault: 'expired-token' });
    const expired = failure(await save(table, theirs, mine), 'ExpiredTokenException');
    h.faulty.heal();
    expect(expired.details?.canSignIn).toBe(true);

    expect(conflict.message).toMatch(/changed this item after you loaded it/);
    expect(throttled.message).toMatch(/throttling requests/);
    expect(expired.message).toMatch(/session has expired/);
    expect(new Set([conflict.message, throttled.message, expired.message]).size).toBe(3);
    // Only the conflict's UpdateItem reached DynamoDB, and it changed nothing.
    expect(ofTable(h.faulty.forwarded('UpdateItem'), table)).toHaveLength(1);
    expectSameItem(await stored(table, seen), theirs);
  });

  it('retries throttling with backoff and saves once when it stops', async () => {
    const seen: Item = { pk: { S: 'order#7' }, status: { S: 'created' }, total: { N: '99.50' } };
    const table = await tableWith(seen);
    const before = h.faulty.calls.length;
    h.faulty.script({ operation: 'UpdateItem', fault: 'throttling', next: 3 });
    const desired: Item = { ...seen, status: { S: 'paid' } };
    const saved = await save(table, seen, desired);
    expect(saved.ok, saved.ok ? '' : saved.error.message).toBe(true);
    const updates = h.faulty.calls.slice(before).filter((c) => c.operation === 'UpdateItem');
    expect(updates.map((c) => c.fault ?? 'forwarded')).toEqual([
      'throttling',
      'throttling',
      'throttling',
      'forwarded',
    ]);
    // Each retry is the same conditional request, and only one reached the table.
    expect(new Set(updates.map((c) => JSON.stringify(c.body))).size).toBe(1);
    expectSameItem(await stored(table, seen), desired);
  });

  it('creates each item once when every second write is throttled', async () => {
    const table = await createItemsTable(h.client);
    h.faulty.script({ operation: 'PutItem', fault: 'request-limit', every: 2 });
    const items: Item[] = Array.from({ length: 4 }, (_, i) => ({
      pk: { S: `new#${i}` },
      n: { N: String(i) },
    }));
    for (const item of items) {
      const created = await h.call('items:create', { connectionId: 'local', table, item });
      // Created once, and journaled once for undo.
      expect(created).toEqual({ ok: true, value: { item, journalId: expect.any(String) as string } });
    }
    h.faulty.heal();
    const puts = ofTable(h.faulty.forwarded('PutItem'), table);
    expect(puts.map((c) => (c.body.Item as { pk: { S: string } }).pk.S)).toEqual(
      items.map((_, i) => `new#${i}`),
    );
    expect(ofTable(h.faulty.refused('PutItem'), table).length).toBeGreaterThan(0);
    for (const item of items) expect(await stored(table, item)).toEqual(item);
  });
});
