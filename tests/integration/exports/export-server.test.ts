import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DescribeContinuousBackupsCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  DynamoDBClient,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  ListExportsCommand,
  UpdateContinuousBackupsCommand,
  type ExportDescription,
  type ImportTableDescription,
} from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { localClient, uniqueTableName } from '../../support/dynamo-local';
import { canonical, rawDynamo } from '../../support/raw-dynamo';
import { startLocalS3, type LocalS3 } from '../../support/exports/s3-local';
import { startExportServer, type ExportServer } from '../../support/exports/export-server';
import { everyTypeItem } from '../../fixtures/items-every-type';

const dynamoEndpoint = inject('dynamoEndpoint');
let s3: LocalS3;
let server: ExportServer;
let client: DynamoDBClient;
let s3Client: S3Client;
const bucket = 'exports-test';

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket(bucket);
  s3Client = s3.client();
  server = await startExportServer({ dynamoEndpoint, s3Endpoint: s3.endpoint });
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

async function text(key: string): Promise<string> {
  const got = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray()).toString('utf8');
}

async function dataLines(summaryKey: string): Promise<unknown[]> {
  const summary = JSON.parse(await text(summaryKey)) as { manifestFilesS3Key: string; itemCount: number };
  const files = (await text(summary.manifestFilesS3Key))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { dataFileS3Key: string; itemCount: number });
  const lines: unknown[] = [];
  for (const file of files) {
    const got = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: file.dataFileS3Key }));
    const body = gunzipSync(Buffer.from(await got.Body!.transformToByteArray())).toString('utf8');
    const parsed = body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
    expect(parsed).toHaveLength(file.itemCount);
    lines.push(...parsed);
  }
  expect(lines).toHaveLength(summary.itemCount);
  return lines;
}

async function finished(arn: string): Promise<ExportDescription> {
  for (;;) {
    const { ExportDescription: d } = await client.send(new DescribeExportCommand({ ExportArn: arn }));
    if (d?.ExportStatus !== 'IN_PROGRESS') return d!;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function imported(arn: string): Promise<ImportTableDescription> {
  for (;;) {
    const { ImportTableDescription: d } = await client.send(new DescribeImportCommand({ ImportArn: arn }));
    if (d?.ImportStatus !== 'IN_PROGRESS') return d!;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scanCanonical(table: string): Promise<string[]> {
  const page = await rawDynamo<{ Items: unknown[] }>(dynamoEndpoint, 'Scan', { TableName: table });
  return page.Items.map((item) => canonical(item)).sort();
}

const hostile = ['__proto__', 'constructor', 'a.b', '#x', '[0]'];

describe('the local export server, through the real SDK', () => {
  it('refuses an export until PITR is on, then writes the documented layout holding every stored item', async () => {
    const table = uniqueTableName('exp');
    await rawDynamo(dynamoEndpoint, 'CreateTable', {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    });
    await rawDynamo(dynamoEndpoint, 'PutItem', { TableName: table, Item: everyTypeItem('every#1') });
    for (let i = 0; i < 40; i++) {
      const item: Record<string, unknown> = { pk: { S: `p${i}` }, n: { N: String(i) } };
      for (const name of hostile) item[name] = { S: `${name}-${i}` };
      await rawDynamo(dynamoEndpoint, 'PutItem', {
        TableName: table,
        Item: item,
      });
    }
    const { Table } = await rawDynamo<{ Table: { TableArn: string } }>(dynamoEndpoint, 'DescribeTable', {
      TableName: table,
    });
    const start = { TableArn: Table.TableArn, S3Bucket: bucket, S3Prefix: 'nightly/orders' };

    await expect(client.send(new ExportTableToPointInTimeCommand(start))).rejects.toMatchObject({
      name: 'PointInTimeRecoveryUnavailableException',
    });
    const before = await client.send(new DescribeContinuousBackupsCommand({ TableName: table }));
    expect(
      before.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus,
    ).toBe('DISABLED');
    await client.send(
      new UpdateContinuousBackupsCommand({
        TableName: table,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    const after = await client.send(new DescribeContinuousBackupsCommand({ TableName: table }));
    expect(
      after.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus,
    ).toBe('ENABLED');

    const full = await client.send(
      new ExportTableToPointInTimeCommand({ ...start, ExportFormat: 'DYNAMODB_JSON' }),
    );
    expect(full.ExportDescription?.ExportStatus).toBe('IN_PROGRESS');
    const done = await finished(full.ExportDescription!.ExportArn!);
    expect(done).toMatchObject({ ExportStatus: 'COMPLETED', ItemCount: 41, ExportType: 'FULL_EXPORT' });
    expect(done.BilledSizeBytes).toBeGreaterThan(0);
    expect(done.ExportManifest).toMatch(/^nightly\/orders\/AWSDynamoDB\/[^/]+\/manifest-summary\.json$/);
    const lines = (await dataLines(done.ExportManifest!)) as { Item: unknown }[];
    expect(lines.map((line) => canonical(line.Item)).sort()).toEqual(await scanCanonical(table));

    // Changes after the full export: one insert, one update, one delete.
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      Item: { pk: { S: 'new' }, n: { N: '1' } },
    });
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      Item: { pk: { S: 'p1' }, n: { N: '100' } },
    });
    await rawDynamo(dynamoEndpoint, 'DeleteItem', { TableName: table, Key: { pk: { S: 'p2' } } });
    const incremental = await client.send(
      new ExportTableToPointInTimeCommand({
        ...start,
        ExportType: 'INCREMENTAL_EXPORT',
        IncrementalExportSpecification: {
          ExportFromTime: new Date(done.StartTime!.getTime() + 1),
          ExportViewType: 'NEW_AND_OLD_IMAGES',
        },
      }),
    );
    const changed = await finished(incremental.ExportDescription!.ExportArn!);
    expect(changed).toMatchObject({
      ExportStatus: 'COMPLETED',
      ExportType: 'INCREMENTAL_EXPORT',
      ItemCount: 3,
    });
    const records = (await dataLines(changed.ExportManifest!)) as {
      Keys: { pk: { S: string } };
      NewImage?: unknown;
      OldImage?: { n: { N: string } };
      Metadata: { WriteTimestampMicros: { N: string } };
    }[];
    const byKey = new Map(records.map((r) => [r.Keys.pk.S, r]));
    expect(byKey.get('new')).toMatchObject({ NewImage: { pk: { S: 'new' } } });
    expect(byKey.get('new')?.OldImage).toBeUndefined();
    expect(byKey.get('p1')).toMatchObject({ NewImage: { n: { N: '100' } }, OldImage: { n: { N: '1' } } });
    expect(byKey.get('p2')?.NewImage).toBeUndefined();
    expect(byKey.get('p2')?.OldImage).toMatchObject({ n: { N: '2' } });
    expect(records.every((r) => /^\d+$/.test(r.Metadata.WriteTimestampMicros.N))).toBe(true);

    const listed = await client.send(new ListExportsCommand({ TableArn: Table.TableArn }));
    expect(listed.ExportSummaries?.map((s) => s.ExportType)).toEqual(['FULL_EXPORT', 'INCREMENTAL_EXPORT']);

    // The full export's data files import into a new table holding the same items.
    const copy = uniqueTableName('imp');
    const dataPrefix = done.ExportManifest!.replace(/manifest-summary\.json$/, 'data/');
    const started = await client.send(
      new ImportTableCommand({
        S3BucketSource: { S3Bucket: bucket, S3KeyPrefix: dataPrefix },
        InputFormat: 'DYNAMODB_JSON',
        InputCompressionType: 'GZIP',
        TableCreationParameters: {
          TableName: copy,
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      }),
    );
    const result = await imported(started.ImportTableDescription!.ImportArn!);
    expect(result).toMatchObject({ ImportStatus: 'COMPLETED', ImportedItemCount: 41, ErrorCount: 0 });
    expect(await scanCanonical(copy)).toEqual(lines.map((line) => canonical(line.Item)).sort());
  });

  it('imports CSV with typed keys and string attributes, and refuses a table that exists', async () => {
    const table = uniqueTableName('csv');
    await s3Client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `csv/${table}/part1.csv`,
        Body: 'id;name;qty\n1;"semi;colon";5\n2;plain;\n',
      }),
    );
    const params = {
      S3BucketSource: { S3Bucket: bucket, S3KeyPrefix: `csv/${table}/` },
      InputFormat: 'CSV' as const,
      InputFormatOptions: { Csv: { Delimiter: ';' } },
      TableCreationParameters: {
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' as const }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }],
        BillingMode: 'PAY_PER_REQUEST' as const,
      },
    };
    const started = await client.send(new ImportTableCommand(params));
    const result = await imported(started.ImportTableDescription!.ImportArn!);
    expect(result).toMatchObject({ ImportStatus: 'COMPLETED', ImportedItemCount: 2 });
    expect(await scanCanonical(table)).toEqual(
      [
        { id: { N: '1' }, name: { S: 'semi;colon' }, qty: { S: '5' } },
        { id: { N: '2' }, name: { S: 'plain' } },
      ]
        .map((item) => canonical(item))
        .sort(),
    );
    await expect(client.send(new ImportTableCommand(params))).rejects.toMatchObject({
      name: 'ResourceInUseException',
    });
  });

  it('passes every other operation through to DynamoDB Local', async () => {
    const direct = localClient(dynamoEndpoint);
    const table = uniqueTableName('pass');
    await rawDynamo(dynamoEndpoint, 'CreateTable', {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    });
    const { DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
    const through = await client.send(new DescribeTableCommand({ TableName: table }));
    const straight = await direct.send(new DescribeTableCommand({ TableName: table }));
    expect(through.Table?.TableArn).toBe(straight.Table?.TableArn);
    direct.destroy();
  });
});
