import {
  DeleteTableCommand,
  TagResourceCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { singleTableDefinition, type TableDefinition } from '../../../src/shared/dynamo/table-definition';
import { sendControlCall } from '../../../src/main/dynamo/table-admin/control-calls';
import { toSummary } from '../../../src/main/dynamo/table-metadata';
import { changeCalls } from '../../../src/shared/dynamo/table-change';
import { createTableCalls } from '../../../src/shared/dynamo/table-request-text';
import type { ItemsHarness } from '../../support/items-context';
import { failure } from '../../support/items-assert';
import { uniqueTableName } from '../../support/dynamo-local';
import {
  createThrough,
  describeRaw,
  nextRequestId,
  tableAdminHarness,
  ttlRaw,
  updateThrough,
} from '../../support/table-admin';

let h: ItemsHarness;
beforeAll(() => {
  h = tableAdminHarness(inject('dynamoEndpoint'));
});
afterAll(() => h.close());

const summaryOf = (raw: Awaited<ReturnType<typeof describeRaw>>) => toSummary(raw, undefined, undefined);

async function newTable(prefix: string, extra: Partial<TableDefinition> = {}): Promise<string> {
  const definition = { ...singleTableDefinition(uniqueTableName(prefix)), ttlAttribute: undefined, ...extra };
  await createThrough(h, definition);
  return definition.name;
}

describe('tables:update against DynamoDB Local', () => {
  it('switches billing to provisioned (its GSI too) and back to on-demand', async () => {
    const table = await newTable('billing');
    await updateThrough(h, table, {
      kind: 'billing',
      mode: 'PROVISIONED',
      readCapacity: 6,
      writeCapacity: 3,
    });
    let raw = await describeRaw(h, table);
    expect(raw.BillingModeSummary?.BillingMode).toBe('PROVISIONED');
    expect(raw.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 6, WriteCapacityUnits: 3 });
    expect(raw.GlobalSecondaryIndexes?.[0]?.ProvisionedThroughput).toMatchObject({
      ReadCapacityUnits: 6,
      WriteCapacityUnits: 3,
    });
    await updateThrough(h, table, {
      kind: 'billing',
      mode: 'PROVISIONED',
      readCapacity: 8,
      writeCapacity: 3,
    });
    expect((await describeRaw(h, table)).ProvisionedThroughput?.ReadCapacityUnits).toBe(8);
    const { result } = await updateThrough(h, table, { kind: 'billing', mode: 'PAY_PER_REQUEST' });
    raw = await describeRaw(h, table);
    expect(raw.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(result.summary.billingMode).toBe('PAY_PER_REQUEST');
  });

  it('turns TTL on and off, and refuses to change its attribute while it is on', async () => {
    const table = await newTable('ttl');
    await updateThrough(h, table, { kind: 'ttl', enabled: true, attribute: 'expiresAt' });
    expect(await ttlRaw(h, table)).toEqual({ status: 'ENABLED', attribute: 'expiresAt' });
    const other = await h.call('tables:update', {
      connectionId: 'local',
      table,
      requestId: nextRequestId('ttl'),
      change: { kind: 'ttl', enabled: true, attribute: 'ttl' },
    });
    const error = failure(other, 'InvalidInput');
    expect(error.message).toMatch(/turn it off first/);
    expect(error.details?.fields).toEqual([{ field: 'attribute', message: error.message }]);
    await updateThrough(h, table, { kind: 'ttl', enabled: false, attribute: 'expiresAt' });
    expect((await ttlRaw(h, table)).status).toBe('DISABLED');
  });

  it('turns the stream on, changes its view type (a new stream), and turns it off', async () => {
    const table = await newTable('stream');
    await updateThrough(h, table, { kind: 'stream', enabled: true, viewType: 'NEW_IMAGE' });
    const first = await describeRaw(h, table);
    expect(first.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
    await updateThrough(h, table, { kind: 'stream', enabled: true, viewType: 'NEW_AND_OLD_IMAGES' });
    const second = await describeRaw(h, table);
    expect(second.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(second.LatestStreamArn).toBeDefined();
    expect(second.LatestStreamArn).not.toBe(first.LatestStreamArn);
    const off = await updateThrough(h, table, { kind: 'stream', enabled: false });
    expect((await describeRaw(h, table)).StreamSpecification).toBeUndefined();
    expect(off.result.summary.stream.enabled).toBe(false);
  });

  it('deletion protection makes DynamoDB refuse a delete until it is turned off', async () => {
    const table = await newTable('protect');
    await updateThrough(h, table, { kind: 'deletionProtection', enabled: true });
    const refused = h.client.send(new DeleteTableCommand({ TableName: table }));
    await expect(refused).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(refused).rejects.toThrow(/protected against deletion/);
    await updateThrough(h, table, { kind: 'deletionProtection', enabled: false });
    expect((await describeRaw(h, table)).DeletionProtectionEnabled).toBe(false);
    await h.client.send(new DeleteTableCommand({ TableName: table }));
  });

  it('says plainly that DynamoDB Local has no PITR, tags or table class, as DynamoDB Local itself answers', async () => {
    const table = await newTable('local');
    const arn = (await describeRaw(h, table)).TableArn;
    // The premises, from DynamoDB Local itself.
    await expect(
      h.client.send(
        new UpdateContinuousBackupsCommand({
          TableName: table,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        }),
      ),
    ).rejects.toMatchObject({ name: 'UnknownOperationException' });
    const tagging = h.client.send(
      new TagResourceCommand({ ResourceArn: arn, Tags: [{ Key: 'a', Value: 'b' }] }),
    );
    await expect(tagging).rejects.toMatchObject({ name: 'UnknownOperationException' });
    await expect(tagging).rejects.toThrow(/Tagging is not currently supported/);
    expect((await describeRaw(h, table)).TableClassSummary).toBeUndefined();

    const refusals = [
      [{ kind: 'pitr', enabled: true }, /does not implement point-in-time recovery/],
      [{ kind: 'tags', set: [{ key: 'team', value: 'x' }], remove: [] }, /does not implement tags/],
      [{ kind: 'tableClass', tableClass: 'STANDARD_INFREQUENT_ACCESS' }, /ignores the table class/],
    ] as const;
    for (const [change, sentence] of refusals) {
      const result = await h.call('tables:update', {
        connectionId: 'local',
        table,
        requestId: nextRequestId('local'),
        change,
      });
      expect(failure(result, 'NotSupported').message).toMatch(sentence);
    }
  });

  it('refuses every change on a read-only connection before the network', async () => {
    const table = await newTable('ro');
    const changes = [
      { kind: 'billing', mode: 'PROVISIONED', readCapacity: 2, writeCapacity: 2 },
      { kind: 'deleteIndex', name: 'GSI1' },
      { kind: 'ttl', enabled: true, attribute: 'expiresAt' },
      { kind: 'stream', enabled: true, viewType: 'KEYS_ONLY' },
      { kind: 'deletionProtection', enabled: true },
    ];
    for (const change of changes) {
      const result = await h.call('tables:update', {
        connectionId: 'ro',
        table,
        requestId: nextRequestId('ro'),
        change,
      });
      failure(result, 'ReadOnlyConnection');
    }
    const raw = await describeRaw(h, table);
    expect(raw.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(raw.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(['GSI1']);
    expect(raw.StreamSpecification).toBeUndefined();
    expect(raw.DeletionProtectionEnabled).toBe(false);
    expect((await ttlRaw(h, table)).status).toBe('DISABLED');
  });

  it("the read-only connection's own client refuses every control-plane request DynoTable can send", async () => {
    const table = await newTable('ro_sdk');
    const client = await h.ctx.clients.dynamo('ro');
    const definition = singleTableDefinition(uniqueTableName('ro_sdk_new'));
    const calls = [
      ...createTableCalls(definition),
      ...changeCalls({ kind: 'deletionProtection', enabled: true }, summaryOf(await describeRaw(h, table))),
      { operation: 'TagResource' as const, input: { ResourceArn: 'arn', Tags: [] } },
      { operation: 'UntagResource' as const, input: { ResourceArn: 'arn', TagKeys: ['a'] } },
      { operation: 'UpdateContinuousBackups' as const, input: { TableName: table } },
      { operation: 'DeleteTable' as const, input: { TableName: table } },
    ];
    for (const call of calls)
      await expect(sendControlCall(client, call), call.operation).rejects.toMatchObject({
        code: 'ReadOnlyConnection',
      });
    expect((await describeRaw(h, table)).TableStatus).toBe('ACTIVE');
    await expect(describeRaw(h, definition.name)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
