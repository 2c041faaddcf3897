import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../src/main/dynamo/marshal';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { formatDynamoJson, parseDynamoJson } from '../../src/shared/dynamo/item-json';
import { everyTypeItem } from '../fixtures/items-every-type';
import { expectSameItem, failure } from '../support/items-assert';
import { createItemsTable, itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';

let h: ItemsHarness;
let table: string;
beforeAll(async () => {
  h = itemsHarness(inject('dynamoEndpoint'), queryHandlers);
  table = await createItemsTable(h.client, { prefix: 'roundtrip' });
});
afterAll(() => h.close());

async function storedRaw(key: Item) {
  const response = await h.client.send(
    new GetItemCommand({ TableName: table, Key: toSdkItem(key), ConsistentRead: true }),
  );
  return response.Item;
}

/** Loads the item the way the grid does: query:start into a result set, then a window of rows. */
async function loadLikeTheGrid(pk: string): Promise<Item> {
  const { resultSetId } = await runQuery(h, {
    table,
    spec: { mode: 'query', partitionKey: { S: pk }, consistent: true },
  });
  const window = await h.ctx.resultSets.window(resultSetId, 0, 10);
  expect(window.rows).toHaveLength(1);
  return window.rows[0] as Item;
}

describe('round trip of an item holding every type', () => {
  it('reads every value exactly as stored: digits, bytes, sets, NULL vs missing, empty values', async () => {
    const original = everyTypeItem('rt#read');
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(original) }));
    const row = await loadLikeTheGrid('rt#read');
    expectSameItem(row, original);
    expect(row.big).toEqual({ N: '12345678901234567890123456789012345678' });
    expect(row.negativeBig).toEqual({ N: '-99999999999999999999999999999999999999' });
    expect(Buffer.from((row.bytes as { B: string }).B, 'base64')).toEqual(
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    );
    expect(row.emptyBinary).toEqual({ B: '' });
    expect(row.emptyString).toEqual({ S: '' });
    expect(row.nothing).toEqual({ NULL: true });
    expect('absent' in row).toBe(false);
    expect(Object.keys(row.strings ?? {})).toEqual(['SS']);
    expect(Object.keys(row.numbers ?? {})).toEqual(['NS']);
    expect(Object.keys(row.binaries ?? {})).toEqual(['BS']);
    // The editor's DynamoDB-JSON view gives back the same item.
    expectSameItem(parseDynamoJson(formatDynamoJson(row)), row);
  });

  it.each([
    ['a reserved word', 'status', { S: 'edited' }],
    ['a name with a dot', 'a.b', { S: 'still one top-level name' }],
    ['a 38-digit number', 'big', { N: '-12345678901234567890123456789012345678' }],
    ['a nested value', 'deep', { M: { replaced: { NS: ['1', '2'] } } }],
    ['NULL to missing', 'nothing', undefined],
    ['missing to NULL', 'absent', { NULL: true }],
    ['unicode names', 'ünïcødé 名前', { BS: ['AA==', '/w=='] }],
  ] as const)('edits %s through items:update and changes nothing else', async (_what, name, value) => {
    const pk = `rt#${name}`;
    const original = everyTypeItem(pk);
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(original) }));
    const seen = await loadLikeTheGrid(pk);
    const desired: Item = Object.fromEntries(Object.entries(seen).filter(([n]) => n !== name));
    if (value) desired[name] = value as Item[string];
    const saved = await h.call('items:update', { connectionId: 'local', table, seen, desired });
    expect(saved.ok, saved.ok ? '' : saved.error.message).toBe(true);
    const raw = await storedRaw({ pk: { S: pk } });
    expectSameItem(raw ? fromSdkItem(raw) : null, desired);
    // Byte-level checks on the raw SDK item, past our own marshalling.
    expect(Buffer.from(raw?.bytes?.B ?? new Uint8Array())).toEqual(
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    );
    expect(raw?.emptyBinary?.B?.length).toBe(0);
    expect(raw?.emptyString?.S).toBe('');
    if (name !== 'big') expect(raw?.big?.N).toBe('12345678901234567890123456789012345678');
  });

  it('tells the second of two editors of the same item, and loses neither edit', async () => {
    const pk = 'rt#concurrent';
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(everyTypeItem(pk)) }));
    const alice = await loadLikeTheGrid(pk);
    const bob = await loadLikeTheGrid(pk);
    const aliceWants: Item = { ...alice, status: { S: 'alice' } };
    const bobWants: Item = { ...bob, name: { S: 'bob' } };
    expect(
      (await h.call('items:update', { connectionId: 'local', table, seen: alice, desired: aliceWants })).ok,
    ).toBe(true);
    const conflict = failure(
      await h.call('items:update', { connectionId: 'local', table, seen: bob, desired: bobWants }),
      'ConditionalCheckFailedException',
    );
    expectSameItem(conflict.details?.current as Item, aliceWants);
    // Bob rebases on the current item (what the conflict view's "keep theirs, apply mine" does).
    const current = conflict.details?.current as Item;
    const rebased: Item = { ...current, name: { S: 'bob' } };
    expect(
      (await h.call('items:update', { connectionId: 'local', table, seen: current, desired: rebased })).ok,
    ).toBe(true);
    const raw = await storedRaw({ pk: { S: pk } });
    expectSameItem(raw ? fromSdkItem(raw) : null, {
      ...everyTypeItem(pk),
      status: { S: 'alice' },
      name: { S: 'bob' },
    });
  });
});
