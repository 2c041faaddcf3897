import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  DescribeExportCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ExportTableToPointInTimeCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import type { AthenaPlan } from '../../src/shared/ipc/athena';
import type { SqlResultSummary, SqlWindow } from '../../src/shared/ipc/sql';
import { localClient } from '../support/dynamo-local';
import { startBrowserCore, type BrowserCore } from '../support/browser-core';
import { startBigTableAws, type BigTableAws } from '../support/athena/big-table-aws';
import { SHOP_ITEMS } from '../support/athena/shop';
import { createShopTable } from './sql-support';

/**
 * The Athena path over an Ion export: the same items in two tables, one exported in Amazon Ion
 * (DynamoDB's Ion format, read back by ion-js in the local Athena server) and one in DynamoDB
 * JSON; each statement's Athena rows over both exports are compared with the local engine's.
 */
const GB = 1e9;
let dynamo: DynamoDBClient;
let ionTable: string;
let jsonTable: string;
let aws: BigTableAws;
let app: BrowserCore;
const settings = {
  workGroup: 'primary',
  outputLocation: 's3://results/dynotable/',
  database: 'dynotable',
  exportBucket: 'exports',
  exportPrefix: 'dynotable',
};

async function exportInIon(table: string): Promise<void> {
  const client = localClient(aws.endpoint);
  try {
    await client.send(
      new UpdateContinuousBackupsCommand({
        TableName: table,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    );
    const arn = (await client.send(new DescribeTableCommand({ TableName: table }))).Table!.TableArn!;
    const begun = await client.send(
      new ExportTableToPointInTimeCommand({
        TableArn: arn,
        S3Bucket: 'exports',
        S3Prefix: 'dynotable',
        ExportFormat: 'ION',
      }),
    );
    for (;;) {
      const d = await client.send(
        new DescribeExportCommand({ ExportArn: begun.ExportDescription!.ExportArn! }),
      );
      if (d.ExportDescription?.ExportStatus !== 'IN_PROGRESS') {
        expect(d.ExportDescription?.ExportStatus).toBe('COMPLETED');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.destroy();
  }
}

beforeAll(async () => {
  dynamo = localClient(inject('dynamoEndpoint'));
  ionTable = await createShopTable(dynamo, SHOP_ITEMS, 'athenaion');
  jsonTable = await createShopTable(dynamo, SHOP_ITEMS, 'athenajson');
  const big = { sizeBytes: 200 * GB, itemCount: 400_000_000 };
  aws = await startBigTableAws({
    dynamoEndpoint: inject('dynamoEndpoint'),
    sizes: new Map([
      [ionTable, big],
      [jsonTable, big],
    ]),
    buckets: ['exports', 'results'],
    runMs: 20,
  });
  app = await startBrowserCore(aws.endpoint);
  await exportInIon(ionTable);
}, 90_000);
afterAll(async () => {
  await app.close();
  await aws.close();
  dynamo.destroy();
});

function ok<T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value;
}

async function rowsOf(resultId: string): Promise<string[]> {
  const window = ok(await app.call<SqlWindow>('sql:window', { resultId, offset: 0, limit: 1000 }));
  return window.rows.map((row) => JSON.stringify(row.map((v) => (v && !('NULL' in v) ? v : null)))).sort();
}

let serial = 0;
async function run(sql: string, local: boolean): Promise<SqlResultSummary> {
  serial += 1;
  const requestId = `ion-${local ? 'local' : 'athena'}-${serial}`;
  const done = app.waitFor(requestId);
  ok(
    await app.call(local ? 'sql:run' : 'athena:run', {
      connectionId: app.connectionId,
      sql,
      requestId,
      ...(local ? { local: true } : { settings, startExport: true }),
    }),
  );
  const { last } = await done;
  if (last.type !== 'done') throw new Error(JSON.stringify(last));
  if (local) ok(await app.call('sql:clearCache', { connectionId: app.connectionId }));
  return last.value as SqlResultSummary;
}

const STATEMENTS = [
  (t: string) =>
    `SELECT PK, SK, status, total FROM "${t}" WHERE status <> 'CANCELLED' AND SK BETWEEN 'ORDER#' AND 'ORDER#~'`,
  (t: string) =>
    `SELECT status, COUNT(*) AS n, SUM(total) AS amount FROM "${t}" WHERE SK BETWEEN 'ORDER#' AND 'ORDER#~' GROUP BY status`,
  (t: string) => `SELECT PK, SK, qty, paid, note FROM "${t}" WHERE qty > 1 OR paid = false`,
  (t: string) =>
    `SELECT PK, address.city, lines[0].sku FROM "${t}" WHERE address.city IS NOT MISSING OR lines IS NOT MISSING`,
];

describe('the Athena path over an Ion export', () => {
  it('plans over the recent Ion export with native paths, not DynamoDB JSON members', async () => {
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', {
        connectionId: app.connectionId,
        sql: STATEMENTS[0]!(ionTable),
      }),
    );
    expect(plan.athena.exportNeeded).toBe(false);
    expect(plan.athena.exports).toHaveLength(1);
    if (!plan.translation?.ok) throw new Error(JSON.stringify(plan.translation));
    expect(plan.translation.sql).toMatch(/"item"\."total"/);
    expect(plan.translation.sql).not.toMatch(/"total"\."n"/);
  });

  it('gives the rows of the DynamoDB JSON export and of the local engine', async () => {
    for (const statement of STATEMENTS) {
      const onIon = await run(statement(ionTable), false);
      const onJson = await run(statement(jsonTable), false);
      const local = await run(statement(ionTable), true);
      expect(onIon.athena?.exports).toHaveLength(1);
      expect(onIon.columns).toEqual(local.columns);
      expect(onIon.total).toBe(local.total);
      expect(onIon.total).toBeGreaterThan(0);
      const ionRows = await rowsOf(onIon.resultId);
      expect(ionRows).toEqual(await rowsOf(local.resultId));
      expect(ionRows).toEqual(await rowsOf(onJson.resultId));
    }
    expect(aws.calls).toContain('AWSGlue.CreateTable');
  }, 120_000);

  it('refuses, naming it, an attribute an Ion column cannot hold, which DynamoDB JSON can', async () => {
    const sql = (t: string) => `SELECT PK, price FROM "${t}" WHERE SK BETWEEN 'ORDER#' AND 'ORDER#~'`;
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', { connectionId: app.connectionId, sql: sql(ionTable) }),
    );
    expect(plan.translation?.ok).toBe(false);
    if (plan.translation && !plan.translation.ok) {
      expect(plan.translation.construct).toMatch(/price/);
      expect(plan.translation.message).toMatch(/price holds N, S.*Ion.*DynamoDB JSON/);
    }
    const onJson = ok(
      await app.call<AthenaPlan>('athena:plan', { connectionId: app.connectionId, sql: sql(jsonTable) }),
    );
    expect(onJson.translation?.ok).toBe(true);
  });

  it('starts a fresh export when the user asks, though a recent one exists', async () => {
    const before = aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length;
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', {
        connectionId: app.connectionId,
        sql: STATEMENTS[0]!(ionTable),
      }),
    );
    const recent = plan.athena.exports[0]!.exportArn;
    const requestId = 'ion-fresh-1';
    const done = app.waitFor(requestId);
    ok(
      await app.call('athena:run', {
        connectionId: app.connectionId,
        sql: STATEMENTS[0]!(ionTable),
        requestId,
        settings,
        freshExport: true,
      }),
    );
    const { last } = await done;
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    const summary = last.value as SqlResultSummary;
    expect(aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length).toBe(before + 1);
    expect(summary.athena?.exports).toHaveLength(1);
    expect(summary.athena?.exports[0]).not.toBe(recent);
    const local = await run(STATEMENTS[0]!(ionTable), true);
    expect(await rowsOf(summary.resultId)).toEqual(await rowsOf(local.resultId));
  });
});
