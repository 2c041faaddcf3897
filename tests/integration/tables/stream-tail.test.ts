import {
  type AttributeValue,
  DeleteItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { streamHandlers } from '../../../src/main/ipc/handlers/streams';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import type { OperationEvent } from '../../../src/shared/ipc';
import type { StreamRecord } from '../../../src/shared/ipc/stream-record';
import { failure } from '../../support/items-assert';
import { itemsHarness, type ItemsHarness } from '../../support/items-context';
import { uniqueTableName } from '../../support/dynamo-local';
import { createKeyedTable } from '../../support/dynamo-tables';
import { nextRequestId } from '../../support/table-admin';

let h: ItemsHarness;
beforeAll(() => {
  h = itemsHarness(inject('dynamoEndpoint'), { ...streamHandlers, ...operationHandlers });
});
afterAll(() => h.close());

function streamTable(stream: 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' | 'NEW_IMAGE'): Promise<string> {
  return createKeyedTable(h.client, uniqueTableName('tail'), { key: 'pk', stream });
}

/** Starts a tail and resolves once it reads its shards; `records` fills as events arrive. */
async function startTail(table: string, from: 'LATEST' | 'TRIM_HORIZON' = 'LATEST') {
  const requestId = nextRequestId('tail');
  const records: StreamRecord[] = [];
  const events: OperationEvent[] = [];
  let reading!: () => void;
  const isReading = new Promise<void>((resolve) => (reading = resolve));
  const stop = h.ctx.events.subscribe((event) => {
    if (event.requestId !== requestId) return;
    events.push(event);
    if (event.type === 'stream') {
      records.push(...event.records);
      reading();
    }
  });
  const finished = h.waitFor(requestId);
  const started = await h.call<{ viewType: string }>('streams:tail', {
    connectionId: 'local',
    table,
    requestId,
    from,
  });
  expect(started.ok).toBe(true);
  await isReading;
  return { requestId, records, events, finished, stop, started };
}

const until = async (check: () => boolean): Promise<void> => {
  await expect.poll(check, { timeout: 30_000, interval: 100 }).toBe(true);
};

describe('streams:tail against DynamoDB Local', () => {
  it('shows an insert, a modify with both images and a remove made by another client, then stops', async () => {
    const table = await streamTable('NEW_AND_OLD_IMAGES');
    // Written before the tail starts: LATEST must not show it.
    await h.client.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'before' } } }));
    const tail = await startTail(table);

    // `__proto__` is an ordinary attribute name; JSON.parse makes it an own property.
    const inserted = JSON.parse(
      '{"pk":{"S":"a"},"n":{"N":"1"},"__proto__":{"S":"p"},"tags":{"SS":["x","y"]}}',
    ) as Record<string, AttributeValue>;
    await h.client.send(new PutItemCommand({ TableName: table, Item: inserted }));
    await h.client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: { S: 'a' } },
        UpdateExpression: 'SET n = :two, added = :b REMOVE tags',
        ExpressionAttributeValues: { ':two': { N: '2' }, ':b': { BOOL: true } },
      }),
    );
    await h.client.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: 'a' } } }));
    await until(() => tail.records.length >= 3);

    expect(tail.records.map((r) => [r.eventName, r.keys])).toEqual([
      ['INSERT', { pk: { S: 'a' } }],
      ['MODIFY', { pk: { S: 'a' } }],
      ['REMOVE', { pk: { S: 'a' } }],
    ]);
    const [insert, modify, remove] = tail.records;
    expect(insert?.oldImage).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(insert?.newImage ?? {}, '__proto__')?.value).toEqual({ S: 'p' });
    expect(insert?.newImage?.tags).toEqual({ SS: ['x', 'y'] });
    expect(modify?.oldImage?.n).toEqual({ N: '1' });
    expect(modify?.newImage?.n).toEqual({ N: '2' });
    expect(modify?.newImage?.added).toEqual({ BOOL: true });
    expect(modify?.newImage && 'tags' in modify.newImage).toBe(false);
    expect(remove?.oldImage?.n).toEqual({ N: '2' });
    expect(remove?.newImage).toBeUndefined();
    // Sequence numbers grow within the shard.
    const seq = tail.records.map((r) => BigInt(r.sequenceNumber));
    expect(seq[0]! < seq[1]! && seq[1]! < seq[2]!).toBe(true);

    await h.call('ops:cancel', { requestId: tail.requestId });
    const { last } = await tail.finished;
    expect(last.type).toBe('cancelled');
    tail.stop();
  });

  it('TRIM_HORIZON reads what was written before; KEYS_ONLY carries no images', async () => {
    const table = await streamTable('KEYS_ONLY');
    await h.client.send(
      new PutItemCommand({ TableName: table, Item: { pk: { S: 'early' }, v: { S: '1' } } }),
    );
    const tail = await startTail(table, 'TRIM_HORIZON');
    expect(tail.started.ok && tail.started.value.viewType).toBe('KEYS_ONLY');
    await until(() => tail.records.length >= 1);
    expect(tail.records[0]).toMatchObject({ eventName: 'INSERT', keys: { pk: { S: 'early' } } });
    expect(tail.records[0]?.newImage).toBeUndefined();
    await h.call('ops:cancel', { requestId: tail.requestId });
    expect((await tail.finished).last.type).toBe('cancelled');
    tail.stop();
  });

  it('refuses a table without a stream with a sentence', async () => {
    const table = await createKeyedTable(h.client, uniqueTableName('nostream'), { key: 'pk' });
    const answer = await h.call('streams:tail', {
      connectionId: 'local',
      table,
      requestId: nextRequestId('tail'),
      from: 'LATEST',
    });
    expect(failure(answer, 'InvalidInput').message).toMatch(/has no stream\. Turn streams on/);
  });
});
