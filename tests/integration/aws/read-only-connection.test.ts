import {
  BatchExecuteStatementCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { toAppError } from '../../../src/main/core/to-app-error';
import { connectionFixture, directClient, uniqueKeys } from '../../support/aws/connection-fixture';
import { freePort, uniqueTableName } from '../../support/dynamo-local';
import { createTable, tableDefinition } from '../../support/dynamo-tables';

const endpoint = inject('dynamoEndpoint');
let fixture: Awaited<ReturnType<typeof connectionFixture>>;
let admin: DynamoDBClient;
let table: string;
let readOnly: DynamoDBClient;

const item = { pk: { S: 'USER#u1' }, sk: { S: 'PROFILE' }, name: { S: 'Ada' }, balance: { N: '10.5' } };
const key = { pk: item.pk, sk: item.sk };

beforeEach(async () => {
  fixture = await connectionFixture();
  const keys = uniqueKeys();
  admin = directClient(endpoint, keys);
  table = await createTable(admin, uniqueTableName('ro'), {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'S'],
  });
  await admin.send(new PutItemCommand({ TableName: table, Item: item }));
  const connection = await fixture.connections.save(
    {
      label: 'Prod',
      color: '#d1242f',
      kind: 'keys',
      region: 'us-east-1',
      endpoint,
      readOnly: true,
      isProduction: true,
    },
    keys,
  );
  readOnly = await fixture.clients.dynamo(connection.id);
});

afterEach(async () => {
  admin.destroy();
  await fixture.cleanup();
});

async function expectRefused(send: Promise<unknown>, operation: string): Promise<void> {
  const error = await send.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${operation} should have been refused`).toBeDefined();
  const appError = toAppError(error);
  expect(appError.code).toBe('ReadOnlyConnection');
  expect(appError.message).toBe(
    `This connection is read-only, so DynoTable did not send ${operation}. Edit the connection to allow writes.`,
  );
}

describe('a read-only connection, enforced in main', () => {
  it('refuses every write and leaves the table exactly as it was', async () => {
    await expectRefused(
      readOnly.send(new PutItemCommand({ TableName: table, Item: { ...key, name: { S: 'Eve' } } })),
      'PutItem',
    );
    await expectRefused(
      readOnly.send(
        new UpdateItemCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'SET #n = :v',
          ExpressionAttributeNames: { '#n': 'name' },
          ExpressionAttributeValues: { ':v': { S: 'Eve' } },
        }),
      ),
      'UpdateItem',
    );
    await expectRefused(readOnly.send(new DeleteItemCommand({ TableName: table, Key: key })), 'DeleteItem');
    await expectRefused(
      readOnly.send(
        new BatchWriteItemCommand({ RequestItems: { [table]: [{ DeleteRequest: { Key: key } }] } }),
      ),
      'BatchWriteItem',
    );
    await expectRefused(
      readOnly.send(
        new TransactWriteItemsCommand({ TransactItems: [{ Delete: { TableName: table, Key: key } }] }),
      ),
      'TransactWriteItems',
    );
    await expectRefused(
      readOnly.send(new CreateTableCommand(tableDefinition(`${table}_new`, { partitionKey: ['pk', 'S'] }))),
      'CreateTable',
    );
    await expectRefused(readOnly.send(new DeleteTableCommand({ TableName: table })), 'DeleteTable');
    await expectRefused(
      readOnly.send(
        new UpdateTimeToLiveCommand({
          TableName: table,
          TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        }),
      ),
      'UpdateTimeToLive',
    );
    await expectRefused(
      readOnly.send(
        new ExecuteStatementCommand({
          Statement: `DELETE FROM "${table}" WHERE pk = 'USER#u1' AND sk = 'PROFILE'`,
        }),
      ),
      'ExecuteStatement',
    );
    await expectRefused(
      readOnly.send(
        new BatchExecuteStatementCommand({
          Statements: [
            { Statement: `SELECT * FROM "${table}"` },
            { Statement: `DELETE FROM "${table}" WHERE pk = 'USER#u1' AND sk = 'PROFILE'` },
          ],
        }),
      ),
      'BatchExecuteStatement',
    );
    await expectRefused(
      readOnly.send(
        new ExecuteTransactionCommand({ TransactStatements: [{ Statement: `SELECT * FROM "${table}"` }] }),
      ),
      'ExecuteTransaction',
    );

    const after = await admin.send(new ScanCommand({ TableName: table }));
    expect(after.Items).toEqual([item]);
    expect((await admin.send(new DescribeTableCommand({ TableName: table }))).Table?.TableStatus).toBe(
      'ACTIVE',
    );
    expect((await admin.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
  });

  it('still reads: Scan, Query, GetItem, ListTables, DescribeTable and PartiQL SELECT', async () => {
    expect((await readOnly.send(new ScanCommand({ TableName: table }))).Items).toEqual([item]);
    const queried = await readOnly.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': item.pk },
      }),
    );
    expect(queried.Items).toEqual([item]);
    expect((await readOnly.send(new GetItemCommand({ TableName: table, Key: key }))).Item).toEqual(item);
    expect((await readOnly.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
    expect((await readOnly.send(new DescribeTableCommand({ TableName: table }))).Table?.TableName).toBe(
      table,
    );
    const selected = await readOnly.send(
      new ExecuteStatementCommand({ Statement: `SELECT * FROM "${table}" WHERE pk = 'USER#u1'` }),
    );
    expect(selected.Items).toEqual([item]);
  });

  it('allows writes again once the connection is edited, because the cached client is replaced', async () => {
    const [, saved] = await fixture.connections.list();
    await fixture.connections.save({ ...saved!, readOnly: false });
    fixture.clients.invalidate(saved!.id);
    const writable = await fixture.clients.dynamo(saved!.id);
    await writable.send(new PutItemCommand({ TableName: table, Item: { ...item, name: { S: 'Grace' } } }));
    expect((await admin.send(new GetItemCommand({ TableName: table, Key: key }))).Item?.name).toEqual({
      S: 'Grace',
    });
  });
  it('refuses before any byte leaves main: a write to a closed port fails as read-only, not as refused', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const offline = await fixture.connections.save(
      {
        label: 'Offline',
        color: '#000000',
        kind: 'keys',
        region: 'us-east-1',
        endpoint: closed,
        readOnly: true,
        isProduction: false,
      },
      uniqueKeys(),
    );
    const client = await fixture.clients.dynamo(offline.id);
    await expectRefused(client.send(new DeleteTableCommand({ TableName: table })), 'DeleteTable');
    await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('the playground connection', () => {
  it('uses the running playground and refuses writes when marked read-only', async () => {
    const playground = await connectionFixture(endpoint);
    try {
      const client = await playground.clients.dynamo('playground');
      const name = await createTable(client, uniqueTableName('pg'), { partitionKey: ['pk', 'S'] });
      await playground.connections.save({
        ...(await playground.connections.get('playground')),
        readOnly: true,
      });
      playground.clients.invalidate('playground');
      const guarded = await playground.clients.dynamo('playground');
      await expectRefused(
        guarded.send(new PutItemCommand({ TableName: name, Item: { pk: { S: 'a' } } })),
        'PutItem',
      );
      expect((await guarded.send(new ScanCommand({ TableName: name }))).Items).toEqual([]);
    } finally {
      await playground.cleanup();
    }
  });

  it('says the playground is not running instead of failing somewhere inside the SDK', async () => {
    const stopped = await connectionFixture();
    try {
      stopped.setPlayground({ state: 'unavailable', message: 'Java 17 or newer is needed.' });
      await expect(stopped.clients.dynamo('playground')).rejects.toMatchObject({
        code: 'ConnectionFailed',
        message: expect.stringContaining('The local playground is not running (it is unavailable)') as string,
      });
    } finally {
      await stopped.cleanup();
    }
  });
});
