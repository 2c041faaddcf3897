import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../support/cli-run';
import { canonicalItems, rawPutAll, rawScanAll } from '../../support/copy-oracle';
import { uniqueTableName } from '../../support/dynamo-local';
import { rawDynamo } from '../../support/raw-dynamo';
import { startExportServer, type ExportServer } from '../../support/exports/export-server';
import { startLocalS3, type LocalS3 } from '../../support/exports/s3-local';

// `dynotable export list|start|open` in a child process, against s3rver and the export server
// (one endpoint for DynamoDB and S3), with the real SDK clients.
const dynamoEndpoint = inject('dynamoEndpoint');
const bucket = 'cli-exports';
let s3: LocalS3;
let server: ExportServer;

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket(bucket);
  server = await startExportServer({ dynamoEndpoint, s3Endpoint: s3.endpoint, holdMs: 300 });
});

afterAll(async () => {
  await server.stop();
  await s3.stop();
});

const cli = (args: string[]) =>
  runCli(['export', ...args, '--endpoint', server.endpoint, '--region', 'us-east-1']);

describe('dynotable export', () => {
  it('starts an export and waits for it, lists it, and prints its items, which equal the table', async () => {
    const table = uniqueTableName('expcli');
    await rawDynamo(dynamoEndpoint, 'CreateTable', {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    });
    const items = Array.from({ length: 25 }, (_, i) => ({
      pk: { S: `k${i}` },
      n: { N: `${i}00000000000000000000000000000000001` },
      b: { B: Buffer.from([i, 255]).toString('base64') },
    }));
    await rawPutAll(dynamoEndpoint, table, items);

    const refused = await cli(['start', '--table', table, '--bucket', bucket]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PointInTimeRecoveryUnavailableException/);

    await rawDynamo(server.endpoint, 'UpdateContinuousBackups', {
      TableName: table,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const started = await cli(['start', '--table', table, '--bucket', bucket, '--prefix', 'cli', '--wait']);
    expect(started.stderr).not.toMatch(/dynotable export:/);
    expect(started.code).toBe(0);
    const state = JSON.parse(started.stdout) as { exportArn: string; status: string; itemCount: number };
    expect(state).toMatchObject({ status: 'COMPLETED', itemCount: 25 });

    const listed = await cli(['list', '--table', table]);
    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { exportArn: string }).exportArn),
    ).toEqual([state.exportArn]);

    const opened = await cli(['open', '--bucket', bucket, '--prefix', 'cli']);
    expect(opened.code).toBe(0);
    const printed = opened.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { Item: Record<string, unknown> }).Item);
    expect(canonicalItems(printed)).toEqual(canonicalItems(await rawScanAll(dynamoEndpoint, table)));
    expect(opened.stderr).toMatch(/25 items from s3:\/\/cli-exports\/cli/);
  });

  it('says DynamoDB Local has no exports, with exit code 2', async () => {
    const table = uniqueTableName('expcli');
    await rawDynamo(dynamoEndpoint, 'CreateTable', {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    });
    const listed = await runCli(['export', 'list', '--table', table, '--endpoint', dynamoEndpoint]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/DynamoDB Local.*\(ExportsUnavailable\)/);
  });
});
