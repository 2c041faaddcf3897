import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DescribeExportCommand,
  DynamoDBClient,
  ExportTableToPointInTimeCommand,
  UpdateContinuousBackupsCommand,
  type ExportDescription,
} from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { uniqueTableName } from '../../support/dynamo-local';
import { canonical, rawDynamo } from '../../support/raw-dynamo';
import { startLocalS3, type LocalS3 } from '../../support/exports/s3-local';
import { startExportServer, type ExportServer } from '../../support/exports/export-server';
import { everyTypeItem } from '../../fixtures/items-every-type';
import { createResultSetStore } from '../../../src/main/resultsets/store';
import type { ResultSetStore } from '../../../src/main/resultsets/types';
import { openExport } from '../../../src/main/exports/export-open';
import { folderFiles, s3Files } from '../../../src/main/exports/export-source';

const dynamoEndpoint = inject('dynamoEndpoint');
const bucket = 'open-exports';
let s3: LocalS3;
let server: ExportServer;
let client: DynamoDBClient;
let s3Client: S3Client;
let store: ResultSetStore;

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
  store = createResultSetStore();
});

afterAll(async () => {
  await store.close();
  client.destroy();
  await server.stop();
  await s3.stop();
});

async function exported(input: ConstructorParameters<typeof ExportTableToPointInTimeCommand>[0]) {
  const started = await client.send(new ExportTableToPointInTimeCommand(input));
  for (;;) {
    const { ExportDescription: d } = await client.send(
      new DescribeExportCommand({ ExportArn: started.ExportDescription!.ExportArn }),
    );
    if (d?.ExportStatus !== 'IN_PROGRESS') return d as ExportDescription;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function tableWithItems(): Promise<{ table: string; arn: string }> {
  const table = uniqueTableName('open');
  await rawDynamo(dynamoEndpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  });
  await rawDynamo(dynamoEndpoint, 'PutItem', { TableName: table, Item: everyTypeItem('every#1') });
  for (let i = 0; i < 30; i++) {
    const item: Record<string, unknown> = { pk: { S: `p${i}` }, n: { N: String(i) } };
    for (const name of ['__proto__', 'constructor', 'a.b', '#x', '[0]']) item[name] = { S: `${name}${i}` };
    await rawDynamo(dynamoEndpoint, 'PutItem', { TableName: table, Item: item });
  }
  await client.send(
    new UpdateContinuousBackupsCommand({
      TableName: table,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    }),
  );
  const { Table } = await rawDynamo<{ Table: { TableArn: string } }>(dynamoEndpoint, 'DescribeTable', {
    TableName: table,
  });
  return { table, arn: Table.TableArn };
}

async function rows(resultSetId: string): Promise<string[]> {
  const window = await store.window(resultSetId, 0, 5000);
  return window.rows.map((row) => canonical(row)).sort();
}

async function scanned(table: string): Promise<string[]> {
  const page = await rawDynamo<{ Items: unknown[] }>(dynamoEndpoint, 'Scan', { TableName: table });
  return page.Items.map((item) => canonical(item)).sort();
}

/** Copies every object under the prefix into a folder, keys made relative to the prefix. */
async function download(prefix: string, folder: string): Promise<void> {
  const listed = await s3Client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
  for (const object of listed.Contents ?? []) {
    const got = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
    const target = path.join(folder, object.Key!.slice(prefix.length + 1));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, Buffer.from(await got.Body!.transformToByteArray()));
  }
}

describe('opening an export as a result set', () => {
  it('shows the table as of the latest incremental export, from S3 and from a downloaded folder', async () => {
    const { table, arn } = await tableWithItems();
    const prefix = `exports/${table}`;
    const full = await exported({ TableArn: arn, S3Bucket: bucket, S3Prefix: prefix });
    const atFull = await scanned(table);

    const opened = await openExport(s3Files(s3Client, bucket, prefix), store, { connectionId: 'c1' });
    expect(opened.table).toBe(table);
    expect(opened.items).toBe(31);
    expect(opened.incrementals).toEqual([]);
    expect(await rows(opened.resultSetId)).toEqual(atFull);

    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      Item: { pk: { S: 'new' }, n: { N: '7' } },
    });
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      // Parsed, so __proto__ is an own attribute (in an object literal it would set the prototype).
      Item: JSON.parse('{"pk":{"S":"p1"},"n":{"N":"100"},"__proto__":{"S":"changed"}}') as unknown,
    });
    await rawDynamo(dynamoEndpoint, 'DeleteItem', { TableName: table, Key: { pk: { S: 'p2' } } });
    await exported({
      TableArn: arn,
      S3Bucket: bucket,
      S3Prefix: prefix,
      ExportType: 'INCREMENTAL_EXPORT',
      IncrementalExportSpecification: { ExportFromTime: new Date(full.StartTime!.getTime() + 1) },
    });
    const now = await scanned(table);
    expect(now).not.toEqual(atFull);

    const later = await openExport(s3Files(s3Client, bucket, prefix), store, { connectionId: 'c1' });
    expect(later.incrementals).toHaveLength(1);
    expect(later.items).toBe(31);
    expect(await rows(later.resultSetId)).toEqual(now);

    const folder = await mkdtemp(path.join(tmpdir(), 'dynotable-export-'));
    try {
      await download(prefix, folder);
      const local = await openExport(folderFiles(folder), store, { connectionId: 'c1' });
      expect(await rows(local.resultSetId)).toEqual(now);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('says in a sentence what it cannot open: nothing there, or an Ion export', async () => {
    const { table, arn } = await tableWithItems();
    await expect(
      openExport(s3Files(s3Client, bucket, `nothing/${table}`), store, { connectionId: 'c1' }),
    ).rejects.toMatchObject({
      code: 'NotFound',
      message: expect.stringContaining('no manifest-summary.json') as unknown,
    });
    const prefix = `ion/${table}`;
    await exported({
      TableArn: arn,
      S3Bucket: bucket,
      S3Prefix: prefix,
      ExportFormat: 'ION',
    });
    await expect(
      openExport(s3Files(s3Client, bucket, prefix), store, { connectionId: 'c1' }),
    ).rejects.toMatchObject({
      code: 'UnsupportedExportFormat',
      message: expect.stringContaining('Amazon Ion') as unknown,
    });
  });
});
