import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { expectSameItem, failure } from '../support/items-assert';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';

let h: ItemsHarness;
beforeAll(() => {
  h = itemsHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());

async function stored(table: string, key: Item): Promise<Item | null> {
  const response = await h.client.send(
    new GetItemCommand({ TableName: table, Key: toSdkItem(key), ConsistentRead: true }),
  );
  return response.Item ? fromSdkItem(response.Item) : null;
}

async function put(table: string, item: Item): Promise<void> {
  await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(item) }));
}

const ref = (table: string, connectionId = 'local') => ({ connectionId, table });

describe('items:create', () => {
  it('creates an item once and reports the stored one when the key is taken', async () => {
    const table = await createItemsTable(h.client);
    const item: Item = { pk: { S: 'u#1' }, balance: { N: '10' } };
    expect(await h.call('items:create', { ...ref(table), item })).toMatchObject({
      ok: true,
      value: { item, journalId: expect.stringMatching(/^j/) as unknown },
    });
    const again = await h.call('items:create', {
      ...ref(table),
      item: { pk: { S: 'u#1' }, balance: { N: '99' } },
    });
    const error = failure(again, 'ConditionalCheckFailedException');
    expect(error.message).toMatch(/already exists/);
    expect(error.details?.current).toEqual(item);
    expect(await stored(table, { pk: { S: 'u#1' } })).toEqual(item);
  });

  it('refuses an invalid item at its place and writes nothing', async () => {
    const table = await createItemsTable(h.client);
    const emptySet = await h.call('items:create', {
      ...ref(table),
      item: { pk: { S: 'x' }, tags: { SS: [] } },
    });
    expect(failure(emptySet, 'InvalidInput').message).toMatch(/^tags: A set cannot be empty/);
    const missingKey = await h.call('items:create', { ...ref(table), item: { other: { S: 'x' } } });
    expect(failure(missingKey, 'InvalidInput').message).toMatch(/partition key "pk" is required/);
    expect(await stored(table, { pk: { S: 'x' } })).toBeNull();
  });
});

describe('items:update', () => {
  it('writes only the changed attributes and tells the second of two editors, losing nothing', async () => {
    const table = await createItemsTable(h.client);
    const seen: Item = {
      pk: { S: 'o#1' },
      status: { S: 'created' },
      total: { N: '100.10' },
      note: { S: 'n' },
    };
    await put(table, seen);
    const first: Item = { ...seen, status: { S: 'paid' } };
    const second: Item = { ...seen, total: { N: '90' } };
    const a = await h.call<{ item: Item }>('items:update', { ...ref(table), seen, desired: first });
    expectSameItem(a.ok ? a.value.item : null, first);
    const b = await h.call('items:update', { ...ref(table), seen, desired: second });
    const error = failure(b, 'ConditionalCheckFailedException');
    expect(error.message).toMatch(/changed this item/);
    expectSameItem(error.details?.current as Item, first);
    expectSameItem(await stored(table, { pk: { S: 'o#1' } }), first);
  });

  it('treats an attribute the user added as "must still be absent"', async () => {
    const table = await createItemsTable(h.client);
    const seen: Item = { pk: { S: 'a' } };
    await put(table, { ...seen, extra: { S: 'theirs' } });
    const result = await h.call('items:update', {
      ...ref(table),
      seen,
      desired: { ...seen, extra: { S: 'mine' } },
    });
    failure(result, 'ConditionalCheckFailedException');
    expect((await stored(table, seen))?.extra).toEqual({ S: 'theirs' });
  });

  it('changes a key in one transaction, and refuses when the new key is taken', async () => {
    const table = await createItemsTable(h.client);
    const seen: Item = { pk: { S: 'old' }, v: { N: '1' } };
    await put(table, seen);
    await put(table, { pk: { S: 'taken' } });
    const blocked = await h.call('items:update', {
      ...ref(table),
      seen,
      desired: { ...seen, pk: { S: 'taken' } },
    });
    expect(failure(blocked, 'ConditionalCheckFailedException').message).toMatch(/new key already exists/);
    expect(await stored(table, { pk: { S: 'old' } })).toEqual(seen);
    const moved = await h.call('items:update', {
      ...ref(table),
      seen,
      desired: { ...seen, pk: { S: 'new' } },
    });
    expect(moved).toMatchObject({ ok: true, value: { kind: 'key-change' } });
    expect(await stored(table, { pk: { S: 'old' } })).toBeNull();
    expect(await stored(table, { pk: { S: 'new' } })).toEqual({ pk: { S: 'new' }, v: { N: '1' } });
  });
});

describe('items:delete', () => {
  it('deletes only the item the user saw', async () => {
    const table = await createItemsTable(h.client);
    const key: Item = { pk: { S: 'd' } };
    const seen: Item = { ...key, v: { N: '1' } };
    await put(table, { ...key, v: { N: '2' } });
    const stale = await h.call('items:delete', { ...ref(table), key, expected: seen });
    expect(failure(stale, 'ConditionalCheckFailedException').details?.current).toEqual({
      ...key,
      v: { N: '2' },
    });
    const current = await stored(table, key);
    expect(await h.call('items:delete', { ...ref(table), key, expected: current })).toMatchObject({
      ok: true,
      value: { deleted: true },
    });
    expect(await stored(table, key)).toBeNull();
  });

  it('needs the table name typed on a production connection, and refuses on a read-only one', async () => {
    const table = await createItemsTable(h.client);
    const item: Item = { pk: { S: 'p' } };
    await put(table, item);
    const unconfirmed = await h.call('items:delete', { ...ref(table, 'prod'), key: item, expected: item });
    expect(failure(unconfirmed, 'ConfirmationRequired').message).toContain(`Type the table name "${table}"`);
    const readOnly = await h.call('items:delete', {
      ...ref(table, 'ro'),
      key: item,
      expected: item,
      confirmTable: table,
    });
    expect(failure(readOnly, 'ReadOnlyConnection').message).toMatch(/read-only/);
    failure(
      await h.call('items:create', { ...ref(table, 'ro'), item: { pk: { S: 'q' } } }),
      'ReadOnlyConnection',
    );
    expect(await stored(table, item)).toEqual(item);
    const confirmed = await h.call('items:delete', {
      ...ref(table, 'prod'),
      key: item,
      expected: item,
      confirmTable: table,
    });
    expect(confirmed).toMatchObject({
      ok: true,
      value: { deleted: true, journalId: expect.stringMatching(/^j/) as unknown },
    });
  });
});

describe('items:get', () => {
  it('reads an item by key, and null when there is none', async () => {
    const table = await createItemsTable(h.client, { sortKey: true });
    const key: Item = { pk: { S: 'g' }, sk: { N: '12345678901234567890123456789012345678' } };
    const item: Item = { ...key, b: { B: 'AAE=' } };
    await put(table, item);
    expect(await h.call('items:get', { ...ref(table), key, consistent: true })).toEqual({
      ok: true,
      value: { item },
    });
    const none = await h.call('items:get', { ...ref(table), key: { pk: { S: 'none' }, sk: { N: '1' } } });
    expect(none).toEqual({ ok: true, value: { item: null } });
  });
});
