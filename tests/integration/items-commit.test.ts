import { BatchGetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { newRequestToken } from '../../src/shared/dynamo/write-plan';
import type { ChangeResult } from '../../src/shared/ipc/items';
import { expectSameItem, failure } from '../support/items-assert';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';

let h: ItemsHarness;
beforeAll(() => {
  h = itemsHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());

interface CommitOutput {
  results: ChangeResult[];
  batches: number;
  committedBatches: number;
}

async function commit(
  table: string,
  changes: unknown[],
  token = newRequestToken(),
  connectionId = 'local',
  confirmTable?: string,
) {
  return h.call<CommitOutput>('items:commit', { connectionId, table, changes, token, confirmTable });
}

async function count(table: string, keys: Item[]): Promise<number> {
  let found = 0;
  for (let i = 0; i < keys.length; i += 100) {
    const response = await h.client.send(
      new BatchGetItemCommand({
        RequestItems: { [table]: { Keys: keys.slice(i, i + 100).map(toSdkItem), ConsistentRead: true } },
      }),
    );
    found += response.Responses?.[table]?.length ?? 0;
  }
  return found;
}

describe('items:commit', () => {
  it('commits 150 staged creates in two transactions of at most 100 actions', async () => {
    const table = await createItemsTable(h.client);
    const changes = Array.from({ length: 150 }, (_, i) => ({
      id: `c${i}`,
      seen: null,
      desired: { pk: { S: `k${i}` }, v: { N: String(i) } },
    }));
    const result = await commit(table, changes);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toMatchObject({ batches: 2, committedBatches: 2 });
    expect(result.value.results.every((r) => r.status === 'written')).toBe(true);
    expect(
      await count(
        table,
        changes.map((c) => ({ pk: c.desired.pk })),
      ),
    ).toBe(150);
  });

  it('maps each cancellation reason back to its change, and writes none of the transaction', async () => {
    const table = await createItemsTable(h.client);
    const stale: Item = { pk: { S: 'b' }, v: { N: '1' } };
    await h.client.send(
      new PutItemCommand({ TableName: table, Item: toSdkItem({ ...stale, v: { N: '2' } }) }),
    );
    const changes = [
      { id: 'create-a', seen: null, desired: { pk: { S: 'a' } } },
      { id: 'edit-b', seen: stale, desired: { ...stale, v: { N: '3' } } },
      { id: 'create-c', seen: null, desired: { pk: { S: 'c' } } },
    ];
    const result = await commit(table, changes);
    if (!result.ok) throw new Error(result.error.message);
    const [a, b, c] = result.value.results;
    expect(a).toMatchObject({ id: 'create-a', status: 'not-attempted' });
    expect(b).toMatchObject({ id: 'edit-b', status: 'conflict', code: 'ConditionalCheckFailed' });
    expectSameItem(b?.current, { ...stale, v: { N: '2' } });
    expect(c).toMatchObject({ id: 'create-c', status: 'not-attempted' });
    expect(result.value.committedBatches).toBe(0);
    expect(await count(table, [{ pk: { S: 'a' } }, { pk: { S: 'c' } }])).toBe(0);
  });

  it('lets a retry with the same token be answered without applying anything twice', async () => {
    const table = await createItemsTable(h.client);
    const token = newRequestToken();
    const changes = [
      { id: 'x', seen: null, desired: { pk: { S: 'x' } } },
      { id: 'y', seen: null, desired: { pk: { S: 'y' } } },
    ];
    const first = await commit(table, changes, token);
    expect(first.ok && first.value.results.map((r) => r.status)).toEqual(['written', 'written']);
    const retry = await commit(table, changes, token);
    // Same token, same requests within 10 minutes: DynamoDB answers success and writes nothing new.
    expect(retry.ok && retry.value.results.map((r) => r.status)).toEqual(['written', 'written']);
    const fresh = await commit(table, changes, newRequestToken());
    expect(fresh.ok && fresh.value.results.map((r) => r.status)).toEqual(['conflict', 'conflict']);
  });

  it('refuses invalid or overlapping changes before sending anything, and needs the name typed for production deletes', async () => {
    const table = await createItemsTable(h.client);
    const invalid = await commit(table, [
      { id: 'ok', seen: null, desired: { pk: { S: 'ok' } } },
      { id: 'bad', seen: null, desired: { pk: { S: 'bad' }, s: { SS: ['a', 'a'] } } },
    ]);
    expect(failure(invalid, 'InvalidInput').details?.changes).toEqual([
      expect.objectContaining({ id: 'bad', message: expect.stringMatching(/twice/) as unknown }),
    ]);
    const overlapping = await commit(table, [
      { id: 'one', seen: null, desired: { pk: { S: 'same' } } },
      { id: 'two', seen: null, desired: { pk: { S: 'same' }, v: { N: '1' } } },
    ]);
    failure(overlapping, 'InvalidInput');
    expect(await count(table, [{ pk: { S: 'ok' } }])).toBe(0);
    const item: Item = { pk: { S: 'p' } };
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(item) }));
    failure(
      await commit(table, [{ id: 'd', seen: item, desired: null }], newRequestToken(), 'prod'),
      'ConfirmationRequired',
    );
    const confirmed = await commit(
      table,
      [{ id: 'd', seen: item, desired: null }],
      newRequestToken(),
      'prod',
      table,
    );
    expect(confirmed.ok && confirmed.value.results[0]?.status).toBe('written');
  });
});
