import { PutItemCommand, QueryCommand, type TableDescription } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  singleTableDefinition,
  toCreateTableRequest,
  type CreateTableRequest,
  type TableDefinition,
} from '../../../src/shared/dynamo/table-definition';
import {
  definitionFromDescription,
  parseTableText,
} from '../../../src/shared/dynamo/table-definition-import';
import { cloudFormationText } from '../../../src/shared/dynamo/table-request-text';
import type { ItemsHarness } from '../../support/items-context';
import { failure } from '../../support/items-assert';
import { uniqueTableName } from '../../support/dynamo-local';
import {
  createThrough,
  describeRaw,
  nextRequestId,
  progressMessages,
  tableAdminHarness,
  ttlRaw,
} from '../../support/table-admin';

let h: ItemsHarness;
beforeAll(() => {
  h = tableAdminHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());

const byName = <T extends { AttributeName?: string; IndexName?: string }>(list: T[] | undefined): T[] =>
  [...(list ?? [])].sort((a, b) =>
    (a.AttributeName ?? a.IndexName ?? '').localeCompare(b.AttributeName ?? b.IndexName ?? ''),
  );

/** What DynamoDB Local stored, field by field, against the request DynoTable showed and sent. */
function expectMatchesRequest(table: TableDescription, request: CreateTableRequest): void {
  expect(table.TableName).toBe(request.TableName);
  expect(table.TableStatus).toBe('ACTIVE');
  expect(byName(table.AttributeDefinitions)).toEqual(byName(request.AttributeDefinitions));
  expect(table.KeySchema).toEqual(request.KeySchema);
  expect(table.BillingModeSummary?.BillingMode ?? 'PROVISIONED').toBe(request.BillingMode);
  if (request.ProvisionedThroughput)
    expect(table.ProvisionedThroughput).toMatchObject(request.ProvisionedThroughput);
  const gsis = byName(table.GlobalSecondaryIndexes).map((g) => ({
    IndexName: g.IndexName,
    KeySchema: g.KeySchema,
    Projection: g.Projection,
    ...(request.BillingMode === 'PROVISIONED'
      ? {
          ProvisionedThroughput: {
            ReadCapacityUnits: g.ProvisionedThroughput?.ReadCapacityUnits,
            WriteCapacityUnits: g.ProvisionedThroughput?.WriteCapacityUnits,
          },
        }
      : {}),
  }));
  expect(gsis).toEqual(byName(request.GlobalSecondaryIndexes));
  const lsis = byName(table.LocalSecondaryIndexes).map((l) => ({
    IndexName: l.IndexName,
    KeySchema: l.KeySchema,
    Projection: l.Projection,
  }));
  expect(lsis).toEqual(byName(request.LocalSecondaryIndexes));
  expect(table.StreamSpecification).toEqual(request.StreamSpecification);
  expect(table.DeletionProtectionEnabled ?? false).toBe(request.DeletionProtectionEnabled ?? false);
}

const fullDefinition = (name: string): TableDefinition => ({
  name,
  partitionKey: { name: 'tenant', type: 'S' },
  sortKey: { name: 'at', type: 'N' },
  billingMode: 'PROVISIONED',
  readCapacity: 4,
  writeCapacity: 2,
  globalIndexes: [
    {
      name: 'byStatus',
      partitionKey: { name: 'status', type: 'S' },
      sortKey: { name: 'at', type: 'N' },
      projection: { type: 'INCLUDE', attributes: ['total', 'owner'] },
      readCapacity: 3,
      writeCapacity: 1,
    },
    {
      name: 'byBlob',
      partitionKey: { name: 'blob', type: 'B' },
      projection: { type: 'KEYS_ONLY' },
      readCapacity: 1,
      writeCapacity: 1,
    },
  ],
  localIndexes: [{ name: 'byTotal', sortKey: { name: 'total', type: 'N' }, projection: { type: 'ALL' } }],
  ttlAttribute: 'expiresAt',
  streamViewType: 'NEW_AND_OLD_IMAGES',
  deletionProtection: true,
  tableClass: 'STANDARD',
  tags: [],
});

describe('tables:create against DynamoDB Local', () => {
  it('creates keys, provisioned capacity, a GSI of each projection, an LSI, a stream, TTL and deletion protection, as requested', async () => {
    const definition = fullDefinition(uniqueTableName('create_full'));
    const { events, result } = await createThrough(h, definition);
    expectMatchesRequest(await describeRaw(h, definition.name), toCreateTableRequest(definition));
    expect(await ttlRaw(h, definition.name)).toEqual({ status: 'ENABLED', attribute: 'expiresAt' });
    expect(result.summary).toMatchObject({
      name: definition.name,
      status: 'ACTIVE',
      deletionProtection: true,
    });
    expect(progressMessages(events).at(-1)).toBe('Setting TTL…');
    expect(result.notes).toEqual([]);
  });

  it('creates the single-table template (PK/SK + GSI1PK/GSI1SK, TTL expiresAt) and its GSI answers queries', async () => {
    const definition = singleTableDefinition(uniqueTableName('create_single'));
    await createThrough(h, definition);
    expectMatchesRequest(await describeRaw(h, definition.name), toCreateTableRequest(definition));
    expect(await ttlRaw(h, definition.name)).toEqual({ status: 'ENABLED', attribute: 'expiresAt' });
    await h.client.send(
      new PutItemCommand({
        TableName: definition.name,
        Item: {
          PK: { S: 'USER#1' },
          SK: { S: 'ORDER#1' },
          GSI1PK: { S: 'STATUS#paid' },
          GSI1SK: { S: '2026' },
        },
      }),
    );
    const onIndex = await h.client.send(
      new QueryCommand({
        TableName: definition.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :p',
        ExpressionAttributeValues: { ':p': { S: 'STATUS#paid' } },
      }),
    );
    expect(onIndex.Items?.map((i) => i.PK?.S)).toEqual(['USER#1']);
  });

  it('creates a copy of an existing table from its description, with the same keys, indexes, stream and TTL', async () => {
    const original = fullDefinition(uniqueTableName('copy_src'));
    await createThrough(h, original);
    const described = await h.call<{ raw: Record<string, unknown> }>('tables:describe', {
      connectionId: 'local',
      table: original.name,
    });
    if (!described.ok) throw new Error(described.error.message);
    const copyName = uniqueTableName('copy_dst');
    const { definition } = definitionFromDescription(described.value.raw, copyName);
    await createThrough(h, definition);
    expectMatchesRequest(
      await describeRaw(h, copyName),
      toCreateTableRequest({ ...original, name: copyName }),
    );
    expect(await ttlRaw(h, copyName)).toEqual({ status: 'ENABLED', attribute: 'expiresAt' });
  });

  it('creates from a pasted CloudFormation template and from a pasted CreateTable JSON', async () => {
    const fromTemplate = fullDefinition(uniqueTableName('cfn'));
    const pasted = parseTableText(cloudFormationText(fromTemplate));
    expect(pasted.source).toBe('CloudFormation');
    await createThrough(h, pasted.definition);
    expectMatchesRequest(await describeRaw(h, fromTemplate.name), toCreateTableRequest(fromTemplate));

    const name = uniqueTableName('json');
    const json = JSON.stringify({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    });
    const parsed = parseTableText(json);
    expect(parsed.source).toBe('CreateTable');
    await createThrough(h, parsed.definition);
    const table = await describeRaw(h, name);
    expect(table.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(table.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'KEYS_ONLY' });
  });

  it('says plainly that DynamoDB Local accepted a table class and tags without keeping them', async () => {
    const definition: TableDefinition = {
      ...singleTableDefinition(uniqueTableName('create_ia')),
      tableClass: 'STANDARD_INFREQUENT_ACCESS',
      tags: [{ key: 'team', value: 'payments' }],
    };
    const { result } = await createThrough(h, definition);
    // The premise, from DynamoDB Local itself: no table class reported.
    expect((await describeRaw(h, definition.name)).TableClassSummary).toBeUndefined();
    expect(result.notes).toEqual([
      expect.stringMatching(/does not implement table classes/),
      expect.stringMatching(/does not implement tagging/),
    ]);
    const tags = await h.call('tables:tags', { connectionId: 'local', table: definition.name });
    expect(tags).toEqual({ ok: true, value: { supported: false, tags: [] } });
  });

  it('refuses a bad definition with a sentence at each field, and sends nothing', async () => {
    const name = 'bad name!';
    const result = await h.call('tables:create', {
      connectionId: 'local',
      requestId: nextRequestId('bad'),
      definition: {
        ...singleTableDefinition(name),
        globalIndexes: [
          {
            name: 'GSI1',
            partitionKey: { name: 'PK', type: 'N' },
            projection: { type: 'INCLUDE', attributes: [] },
          },
        ],
      },
    });
    const error = failure(result, 'InvalidInput');
    expect(error.message).toMatch(/only letters, digits/);
    const fields = error.details?.fields as { field: string; message: string }[];
    expect(fields.map((f) => f.field)).toEqual([
      'name',
      'globalIndexes.0.partitionKey.type',
      'globalIndexes.0.projection',
    ]);
    expect(fields[1]?.message).toMatch(/"PK" is already a key of type S/);
    expect(fields[2]?.message).toMatch(/INCLUDE needs at least one attribute/);
  });

  it('reports ResourceInUseException with what to do when the name is taken', async () => {
    const definition = singleTableDefinition(uniqueTableName('taken'));
    await createThrough(h, definition);
    const requestId = nextRequestId('again');
    const finished = h.waitFor(requestId);
    await h.call('tables:create', { connectionId: 'local', requestId, definition });
    const { last } = await finished;
    expect(last.type).toBe('error');
    if (last.type !== 'error') return;
    expect(last.error.code).toBe('ResourceInUseException');
    expect(last.error.message).toMatch(/choose another name/);
  });

  it('refuses on a read-only connection before anything is sent', async () => {
    const definition = singleTableDefinition(uniqueTableName('ro'));
    const result = await h.call('tables:create', {
      connectionId: 'ro',
      requestId: nextRequestId('ro'),
      definition,
    });
    expect(failure(result, 'ReadOnlyConnection').message).toMatch(/read-only/);
    await expect(describeRaw(h, definition.name)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('cancels only the following: the table is still created', async () => {
    const definition = singleTableDefinition(uniqueTableName('cancel'));
    const requestId = nextRequestId('cancel');
    const finished = h.waitFor(requestId);
    // The cancel overtakes the start, as a quick click on Cancel would.
    await h.call('ops:cancel', { requestId });
    await h.call('tables:create', { connectionId: 'local', requestId, definition });
    expect((await finished).last.type).toBe('cancelled');
    expect((await describeRaw(h, definition.name)).TableStatus).toBe('ACTIVE');
  });
});
