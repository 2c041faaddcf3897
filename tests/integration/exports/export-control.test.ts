import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient, uniqueTableName } from '../../support/dynamo-local';
import { canonical, rawDynamo } from '../../support/raw-dynamo';
import { startLocalS3, type LocalS3 } from '../../support/exports/s3-local';
import { startExportServer, type ExportServer } from '../../support/exports/export-server';
import {
  describeExport,
  describeImport,
  enablePitr,
  follow,
  listExports,
  pitrState,
  startExport,
  startImport,
  type ExportState,
} from '../../../src/main/exports/export-control';

const dynamoEndpoint = inject('dynamoEndpoint');
const bucket = 'control-exports';
let s3: LocalS3;
let server: ExportServer;
let client: DynamoDBClient;

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket(bucket);
  server = await startExportServer({ dynamoEndpoint, s3Endpoint: s3.endpoint, holdMs: 600 });
  client = new DynamoDBClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  client.destroy();
  await server.stop();
  await s3.stop();
});

async function table(): Promise<{ name: string; arn: string }> {
  const name = uniqueTableName('ctl');
  await rawDynamo(dynamoEndpoint, 'CreateTable', {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  });
  for (let i = 0; i < 12; i++)
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: name,
      Item: { pk: { S: `k${i}` }, v: { N: `${i}.5` } },
    });
  const { Table } = await rawDynamo<{ Table: { TableArn: string } }>(dynamoEndpoint, 'DescribeTable', {
    TableName: name,
  });
  return { name, arn: Table.TableArn };
}

describe('the export/import control plane', () => {
  it('checks PITR, enables it, exports with progress and billed size, lists, and imports into a new table', async () => {
    const { name, arn } = await table();
    expect((await pitrState(client, name)).status).toBe('DISABLED');
    await expect(
      startExport(client, { tableArn: arn, bucket, format: 'DYNAMODB_JSON' }),
    ).rejects.toMatchObject({
      name: 'PointInTimeRecoveryUnavailableException',
    });
    const enabled = await enablePitr(client, name);
    expect(enabled.status).toBe('ENABLED');
    expect(enabled.earliest).toMatch(/^\d{4}-/);

    const started = await startExport(client, {
      tableArn: arn,
      bucket,
      prefix: 'ctl',
      format: 'DYNAMODB_JSON',
    });
    expect(started.status).toBe('IN_PROGRESS');
    const seen: ExportState[] = [];
    const done = await follow(
      (signal) => describeExport(client, started.exportArn, signal),
      (state) => seen.push(state),
      undefined,
      { firstMs: 50, maxDelayMs: 100 },
    );
    expect(seen[0]?.status).toBe('IN_PROGRESS');
    expect(done).toMatchObject({
      status: 'COMPLETED',
      itemCount: 12,
      type: 'FULL_EXPORT',
      bucket,
      prefix: 'ctl',
    });
    expect(done.billedSizeBytes).toBeGreaterThan(0);
    expect((await listExports(client, arn)).map((e) => e.exportArn)).toEqual([started.exportArn]);

    const copy = uniqueTableName('ctlimp');
    const importing = await startImport(client, {
      S3BucketSource: {
        S3Bucket: bucket,
        S3KeyPrefix: done.manifest!.replace(/manifest-summary\.json$/, 'data/'),
      },
      InputFormat: 'DYNAMODB_JSON',
      InputCompressionType: 'GZIP',
      TableCreationParameters: {
        TableName: copy,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    });
    const finished = await follow(
      (signal) => describeImport(client, importing.importArn, signal),
      () => undefined,
      undefined,
      { firstMs: 50, maxDelayMs: 100 },
    );
    expect(finished).toMatchObject({ status: 'COMPLETED', table: copy, importedItems: 12, errors: 0 });
    const scan = async (t: string) =>
      (await rawDynamo<{ Items: unknown[] }>(dynamoEndpoint, 'Scan', { TableName: t })).Items.map((i) =>
        canonical(i),
      ).sort();
    expect(await scan(copy)).toEqual(await scan(name));
  });

  it('says in a sentence that DynamoDB Local has no PITR or exports, and offers the copy', async () => {
    const { name, arn } = await table();
    const direct = localClient(dynamoEndpoint);
    try {
      const refused = await startExport(direct, { tableArn: arn, bucket, format: 'DYNAMODB_JSON' }).catch(
        (error: unknown) => error,
      );
      expect(refused).toMatchObject({
        code: 'ExportsUnavailable',
        message: expect.stringContaining('Copy') as unknown,
      });
      const pitr = await pitrState(direct, name).catch((error: unknown) => error);
      // DynamoDB Local answers DescribeContinuousBackups itself (PITR off) or refuses it; either way no export starts.
      if (pitr instanceof Error) expect(pitr).toMatchObject({ code: 'ExportsUnavailable' });
      else expect(pitr).toMatchObject({ status: 'DISABLED' });
    } finally {
      direct.destroy();
    }
  });
});
