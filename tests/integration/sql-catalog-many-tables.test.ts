import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allItems } from '../fixtures/sql-fixture';
import { localClient } from '../support/dynamo-local';
import { startKeyProxy, type KeyProxy } from '../support/key-proxy';
import { createShopTable, sessionFor } from './sql-support';

// An account with more tables than autocomplete samples (100): a database of its own on the shared
// DynamoDB Local, so the count and the names' order are this test's, not what other files made.
let own: KeyProxy;
let client: ReturnType<typeof localClient>;
beforeAll(async () => {
  own = await startKeyProxy(inject('dynamoEndpoint'));
  client = localClient(own.endpoint);
  for (let i = 0; i < 105; i++)
    await client.send(
      new CreateTableCommand({
        TableName: `aaa_filler_${String(i).padStart(3, '0')}`,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
}, 180_000);
afterAll(async () => {
  client.destroy();
  await own.close();
});

describe('SQL autocomplete in an account with more tables than it samples', () => {
  it('completes the entity views of a table past the first 100 once a statement has used it', async () => {
    const table = await createShopTable(client, allItems);
    const { session, connection } = sessionFor(client);
    const signal = new AbortController().signal;
    const before = await session.catalog(connection, [], signal);
    expect(before.tables.map((t) => t.name)).not.toContain(table);

    await session.run(connection, `SELECT COUNT(*) FROM ${table}`, [], { signal, refresh: false });
    const after = await session.catalog(connection, [], signal);
    expect(after.tables).toHaveLength(100);
    expect(after.tables.map((t) => t.name)).toContain(table);
    const views = after.views.filter((v) => v.table === table).map((v) => v.name);
    expect(views.sort()).toEqual(['orders', 'payments', 'users']);
  });
});
