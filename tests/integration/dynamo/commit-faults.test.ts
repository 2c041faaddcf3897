import { BatchGetItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { fromSdkItem, toSdkItem } from '../../../src/main/dynamo/marshal';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { newRequestToken } from '../../../src/shared/dynamo/write-plan';
import type { ChangeResult } from '../../../src/shared/ipc/items';
import { failure } from '../../support/items-assert';
import { createItemsTable } from '../../support/items-context';
import type { RecordedCall } from '../../support/faulty-dynamo';
import { faultyHarness, type FaultyHarness } from '../../support/faulty-harness';

let h: FaultyHarness;
beforeAll(async () => {
  h = await faultyHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());
// Each test starts like a new session: no adaptive-retry slowdown left over from the last one.
afterEach(() => h.ctx.clients.invalidate());

interface CommitOutput {
  results: ChangeResult[];
  batches: number;
  committedBatches: number;
}

interface StagedChange {
  id: string;
  seen: Item | null;
  desired: Item | null;
}

/** As the staged panel commits: the pending changes, and the token it keeps until a commit succeeds. */
const commit = (table: string, changes: StagedChange[], token: string) =>
  h.call<CommitOutput>('items:commit', { connectionId: 'local', table, changes, token });

const transactions = (table: string, calls: readonly RecordedCall[]) =>
  calls.filter(
    (c) =>
      c.operation === 'TransactWriteItems' &&
      JSON.stringify(c.body.TransactItems).includes(`"TableName":"${table}"`),
  );

async function storedCount(table: string, count: number): Promise<number> {
  let found = 0;
  for (let i = 0; i < count; i += 100) {
    const keys = Array.from({ length: Math.min(100, count - i) }, (_, j) => ({ pk: { S: `k${i + j}` } }));
    const response = await h.client.send(
      new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }),
    );
    found += response.Responses?.[table]?.length ?? 0;
  }
  return found;
}

describe('committing staged changes when DynamoDB refuses', () => {
  it('retries a throttled commit with the same ClientRequestToken and writes every change once', async () => {
    const table = await createItemsTable(h.client);
    const seen: Item = { pk: { S: 'edit' }, v: { N: '1' } };
    await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(seen) }));
    const changes: StagedChange[] = [
      { id: 'a', seen: null, desired: { pk: { S: 'k0' } } },
      { id: 'b', seen: null, desired: { pk: { S: 'k1' } } },
      { id: 'edit', seen, desired: { ...seen, v: { N: '2' } } },
    ];
    const token = newRequestToken();
    h.faulty.script({ operation: 'TransactWriteItems', fault: 'provisioned-throughput' });
    const throttled = failure(await commit(table, changes, token), 'ProvisionedThroughputExceededException');
    expect(throttled.message).toMatch(/throttling requests/);
    expect(await storedCount(table, 2)).toBe(0);

    h.faulty.heal();
    const retried = await commit(table, changes, token);
    expect(retried.ok && retried.value.results.map((r) => r.status)).toEqual([
      'written',
      'written',
      'written',
    ]);

    const sent = transactions(table, h.faulty.calls);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.map((c) => c.fault ?? 'forwarded').slice(-2)).toEqual([
      'provisioned-throughput',
      'forwarded',
    ]);
    // Every attempt, the SDK's and the user's, carried the same token and the same actions.
    expect(new Set(sent.map((c) => c.body.ClientRequestToken))).toEqual(new Set([`${token}-0`]));
    expect(new Set(sent.map((c) => JSON.stringify(c.body))).size).toBe(1);
    expect(transactions(table, h.faulty.forwarded())).toHaveLength(1);
    expect(await storedCount(table, 2)).toBe(2);
    const edited = await h.client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'edit' } } }));
    expect(edited.Item && fromSdkItem(edited.Item)).toEqual({ pk: { S: 'edit' }, v: { N: '2' } });
  });

  it('says which changes landed when the session expires after the first of two transactions, and the retry sends only the rest', async () => {
    const table = await createItemsTable(h.client);
    const changes: StagedChange[] = Array.from({ length: 150 }, (_, i) => ({
      id: `c${i}`,
      seen: null,
      desired: { pk: { S: `k${i}` }, n: { N: String(i) } },
    }));
    h.faulty.script({ operation: 'TransactWriteItems', fault: 'expired-token', after: 1 });
    const first = await commit(table, changes, newRequestToken());
    h.faulty.heal();
    if (!first.ok) throw new Error(`the commit failed whole: ${first.error.message}`);
    expect(first.value).toMatchObject({ batches: 2, committedBatches: 1 });
    const written = first.value.results.filter((r) => r.status === 'written');
    const failed = first.value.results.filter((r) => r.status === 'failed');
    expect(written).toHaveLength(100);
    expect(failed).toHaveLength(50);
    // canSignIn: the staged panel offers "Sign in again" beside these, as for any expired session.
    expect(failed[0]).toMatchObject({ code: 'ExpiredTokenException', canSignIn: true });
    expect(failed[0]?.message).toMatch(/session has expired/);
    expect(await storedCount(table, 150)).toBe(100);

    // Signed in again, the staged panel drops what was written and commits the rest under a fresh token.
    const landed = new Set(written.map((r) => r.id));
    const rest = changes.filter((c) => !landed.has(c.id));
    const second = await commit(table, rest, newRequestToken());
    expect(second.ok && second.value.committedBatches).toBe(1);
    expect(await storedCount(table, 150)).toBe(150);
    const forwardedKeys = transactions(table, h.faulty.forwarded()).flatMap((c) =>
      (c.body.TransactItems as { Put: { Item: { pk: { S: string } } } }[]).map((a) => a.Put.Item.pk.S),
    );
    expect(forwardedKeys).toHaveLength(150);
    expect(new Set(forwardedKeys).size).toBe(150);
  });
});
