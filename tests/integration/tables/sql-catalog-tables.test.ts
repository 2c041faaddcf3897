import { CreateTableCommand, paginateListTables } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sqlHandlers } from '../../../src/main/ipc/handlers/sql';
import { blankDefinition, singleTableDefinition } from '../../../src/shared/dynamo/table-definition';
import type { SqlCatalogOutput } from '../../../src/shared/ipc/sql';
import { uniqueTableName } from '../../support/dynamo-local';
import { startKeyProxy, type KeyProxy } from '../../support/key-proxy';
import { itemsHarness, type ItemsHarness } from '../../support/items-context';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { copyHandlers } from '../../../src/main/ipc/handlers/copy';
import { createThrough, describeRaw, nextRequestId } from '../../support/table-admin';

// SQL's catalog keeps table names for ten minutes. A table created or deleted through DynoTable
// must be seen by the next catalog and the next statement, without a refresh. A database of its own
// on the shared DynamoDB Local: the catalog samples at most 100 tables, so other files' could hide
// the new table.
let own: KeyProxy;
let h: ItemsHarness;
beforeAll(async () => {
  own = await startKeyProxy(inject('dynamoEndpoint'));
  h = itemsHarness(own.endpoint, {
    ...tableHandlers,
    ...operationHandlers,
    ...sqlHandlers,
    ...copyHandlers,
  });
}, 120_000);
afterAll(async () => {
  await h.close();
  await own.close();
});

async function catalog(): Promise<SqlCatalogOutput> {
  const answer = await h.call<SqlCatalogOutput>('sql:catalog', { connectionId: 'local' });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

async function plans(table: string): Promise<boolean> {
  const answer = await h.call('sql:plan', { connectionId: 'local', sql: `SELECT * FROM "${table}"` });
  if (!answer.ok) expect(answer.error.message).toContain(table);
  return answer.ok;
}

/** Every table name, past ListTables' pages of 100. */
async function listed(): Promise<string[]> {
  const names: string[] = [];
  for await (const page of paginateListTables({ client: h.client }, {}))
    names.push(...(page.TableNames ?? []));
  return names;
}

async function deleteThrough(table: string): Promise<void> {
  const requestId = nextRequestId('delete');
  const finished = h.waitFor(requestId);
  const started = await h.call('tables:delete', {
    connectionId: 'local',
    table,
    requestId,
    confirmTable: table,
  });
  expect(started.ok).toBe(true);
  expect((await finished).last.type).toBe('done');
}

describe('the SQL catalog after DynoTable creates or deletes a table', () => {
  it('lists a created table at once, forgets a deleted one, and sees the keys of one re-created', async () => {
    const table = uniqueTableName('sqlcat');
    const other = uniqueTableName('sqlcat_other');
    await createThrough(h, { ...blankDefinition(), name: other, partitionKey: { name: 'id', type: 'S' } });
    // The catalog and the statement path have both listed the names before the table exists.
    expect((await catalog()).tables.map((t) => t.name)).toEqual([other]);
    expect(await plans(table)).toBe(false);

    await createThrough(h, singleTableDefinition(table));
    const names = (await catalog()).tables.map((t) => t.name);
    expect(names.sort()).toEqual((await listed()).sort());
    expect(names).toContain(table);
    const raw = await describeRaw(h, table);
    const info = (await catalog()).tables.find((t) => t.name === table);
    expect(info?.keys).toEqual({
      partitionKey: { name: raw.KeySchema?.[0]?.AttributeName, type: 'S' },
      sortKey: { name: raw.KeySchema?.[1]?.AttributeName, type: 'S' },
    });
    expect(info?.indexes.map((i) => i.name)).toEqual(raw.GlobalSecondaryIndexes?.map((g) => g.IndexName));
    expect(await plans(table)).toBe(true);

    await deleteThrough(table);
    expect((await catalog()).tables.map((t) => t.name)).toEqual(await listed());
    expect(await plans(table)).toBe(false);

    // Same name, other keys: the worker's cached description of the old table is gone too.
    await createThrough(h, { ...blankDefinition(), name: table, partitionKey: { name: 'n', type: 'N' } });
    const again = (await catalog()).tables.find((t) => t.name === table);
    expect(again?.keys).toEqual({ partitionKey: { name: 'n', type: 'N' } });
    expect(again?.indexes).toEqual([]);
  });

  it('lists the table a copy created at once', async () => {
    const source = uniqueTableName('sqlcat_src');
    const target = uniqueTableName('sqlcat_copy');
    await createThrough(h, { ...blankDefinition(), name: source, partitionKey: { name: 'id', type: 'S' } });
    expect((await catalog()).tables.map((t) => t.name)).not.toContain(target);

    const requestId = nextRequestId('copy');
    const finished = h.waitFor(requestId);
    const started = await h.call('copy:start', {
      requestId,
      source: { connectionId: 'local', table: source },
      target: { connectionId: 'local', table: target, create: true },
    });
    expect(started.ok).toBe(true);
    expect((await finished).last.type).toBe('done');
    const names = (await catalog()).tables.map((t) => t.name);
    expect(names).toContain(target);
    expect(names.sort()).toEqual((await listed()).sort());
    expect(await plans(target)).toBe(true);
  });

  it('past 100 tables, names every table: the rest by name only, and a table a statement used in full', async () => {
    const made: string[] = [];
    for (let batch = 0; batch < 10; batch++)
      made.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async () => {
            const name = uniqueTableName('sqlcat_many');
            await h.client.send(
              new CreateTableCommand({
                TableName: name,
                AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
                KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
                BillingMode: 'PAY_PER_REQUEST',
              }),
            );
            return name;
          }),
        )),
      );
    const all = (await listed()).sort();
    expect(all.length).toBeGreaterThan(100);

    // Made outside DynoTable: the catalog lists names again once asked to refresh.
    const refreshed = await h.call<SqlCatalogOutput>('sql:catalog', { connectionId: 'local', refresh: true });
    if (!refreshed.ok) throw new Error(refreshed.error.message);
    const first = refreshed.value;
    expect(first.tables).toHaveLength(100);
    expect([...first.tables.map((t) => t.name), ...(first.moreTables ?? [])].sort()).toEqual(all);

    // A statement names a table past the first hundred: the next catalog describes it.
    const late = first.moreTables![first.moreTables!.length - 1]!;
    expect(await plans(late)).toBe(true);
    const next = await catalog();
    expect(next.tables.map((t) => t.name)).toContain(late);
    expect(next.moreTables).not.toContain(late);
    expect([...next.tables.map((t) => t.name), ...(next.moreTables ?? [])].sort()).toEqual(all);
    expect(made.every((name) => all.includes(name))).toBe(true);
  }, 120_000);
});
