import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AthenaClient, GetQueryExecutionCommand } from '@aws-sdk/client-athena';
import { GlueClient } from '@aws-sdk/client-glue';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { ensureGlueTable } from '../../src/main/athena/glue-catalog';
import { glueTableInput } from '../../src/main/athena/glue-table';
import { athenaCostUsd } from '../../src/main/athena/pricing';
import { runAthenaQuery, type AthenaProgress } from '../../src/main/athena/run-query';
import { translateToAthena } from '../../src/main/athena/translate/translate';
import { toText } from '../../src/main/sql/executor/functions';
import { runLocal } from '../../src/main/sql/executor/run-local';
import { startAthenaGlueServer, type AthenaGlueServer } from '../support/athena/athena-glue-server';
import { readExportData } from '../support/athena/export-reader';
import { observedSchema, SHOP_ITEMS, SHOP_TABLE, SHOP_VIEWS } from '../support/athena/shop';
import { writeExportLayout } from '../support/exports/export-layout';
import { startLocalS3, type LocalS3 } from '../support/exports/s3-local';

/**
 * The Athena path's orchestration with the real SDK clients: Glue and Athena on a local server
 * speaking their JSON protocols, over export files the export layout wrote into a local S3.
 */
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let s3: LocalS3;
let server: AthenaGlueServer;
let slow: AthenaGlueServer;
const root = observedSchema(SHOP_ITEMS);

async function writeExport(exportId: string, items: Item[]): Promise<string> {
  const summary = {
    exportArn: `arn:aws:dynamodb:us-east-1:000000000000:table/Shop/export/${exportId}`,
    tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Shop',
    tableId: 'shop-id',
    startTime: new Date(),
    exportTime: new Date(),
    s3Bucket: 'exports',
    s3Prefix: 'dynotable',
    format: 'DYNAMODB_JSON' as const,
  };
  await writeExportLayout(s3.client(), summary, exportId, { items }, () => new Date());
  return `s3://exports/dynotable/AWSDynamoDB/${exportId}/data/`;
}

const clients = (endpoint: string) => ({
  glue: new GlueClient({ endpoint, region: 'us-east-1', credentials }),
  athena: new AthenaClient({ endpoint, region: 'us-east-1', credentials }),
});

function text(v: AttributeValue | undefined): string | null {
  if (!v || 'NULL' in v) return null;
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return String(v.BOOL);
  return JSON.stringify(v);
}

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket('exports');
  const readExport = (location: string) => readExportData(s3.client(), location);
  server = await startAthenaGlueServer({ readExport, runMs: 30 });
  slow = await startAthenaGlueServer({ readExport, runMs: 60_000 });
});
afterAll(async () => {
  await server.close();
  await slow.close();
  await s3.stop();
});

describe('Athena over a DynamoDB export, with the real SDK clients', () => {
  it('creates the Glue table once, reuses it, and updates it for a newer export', async () => {
    const { glue } = clients(server.endpoint);
    const first = await writeExport('01700000000000-aaaa0001', SHOP_ITEMS);
    const spec = { name: 'shop_export', root, exportArn: 'arn:x' };
    expect(await ensureGlueTable(glue, 'dynotable', glueTableInput({ ...spec, location: first }).table)).toBe(
      'created',
    );
    expect(await ensureGlueTable(glue, 'dynotable', glueTableInput({ ...spec, location: first }).table)).toBe(
      'reused',
    );
    const second = await writeExport('01700000000000-aaaa0002', SHOP_ITEMS);
    expect(
      await ensureGlueTable(glue, 'dynotable', glueTableInput({ ...spec, location: second }).table),
    ).toBe('updated');
    expect(server.calls.filter((c) => c === 'AWSGlue.CreateDatabase')).toHaveLength(1);
  });

  it('runs the translated statement with progress, data scanned and cost, and gives the local rows', async () => {
    const { athena } = clients(server.endpoint);
    const sql =
      "SELECT u.name, o.orderId, o.total, o.paid FROM users u JOIN orders o ON o.PK = u.PK WHERE o.status <> 'CANCELLED'";
    const t = translateToAthena(
      sql,
      { tables: [SHOP_TABLE], views: SHOP_VIEWS },
      { database: 'dynotable', tables: new Map([['Shop', { glueTable: 'shop_export', root }]]) },
    );
    if (!t.ok) throw new Error(t.message);
    const progress: AthenaProgress[] = [];
    const outcome = await runAthenaQuery(athena, {
      sql: t.translation.sql,
      database: 'dynotable',
      workGroup: 'analysts',
      outputLocation: 's3://results/dynotable/',
      pollMs: 10,
      onProgress: (p) => progress.push(p),
    });
    if (outcome.status !== 'done') throw new Error(JSON.stringify(outcome));
    const local = runLocal(sql, [{ info: SHOP_TABLE, items: SHOP_ITEMS }], SHOP_VIEWS);
    const mine = local.rows
      .map((r) => r.map(toText))
      .map((r) => JSON.stringify(r))
      .sort();
    const theirs = outcome.rows
      .map((row) => row.map((value) => text(value ?? undefined)))
      .map((r) => JSON.stringify(r))
      .sort();
    expect(theirs).toEqual(mine);
    expect(outcome.columns).toEqual(local.columns);
    expect(progress.at(-1)!.state).toBe('SUCCEEDED');
    expect(outcome.dataScannedBytes).toBeGreaterThan(0);
    // Under 10 MB scanned is billed as 10 MB: $5 per TB.
    expect(outcome.costUsd).toBeCloseTo((10 / 1024 / 1024) * 5, 12);
    expect(outcome.costUsd).toBe(athenaCostUsd(outcome.dataScannedBytes));
  });

  it('pages 1,500 rows through GetQueryResults, the header row dropped', async () => {
    const { glue, athena } = clients(server.endpoint);
    const many: Item[] = Array.from({ length: 1500 }, (_, i) => ({
      PK: { S: `ROW#${i}` },
      SK: { S: 'META' },
      n: { N: String(i) },
    }));
    const location = await writeExport('01700000000000-bbbb0001', many);
    await ensureGlueTable(
      glue,
      'dynotable',
      glueTableInput({ name: 'rows_export', root: observedSchema(many), location, exportArn: 'arn:y' }).table,
    );
    const before = server.calls.filter((c) => c === 'AmazonAthena.GetQueryResults').length;
    const outcome = await runAthenaQuery(athena, {
      sql: 'SELECT "r"."item"."n"."n" AS "n" FROM "dynotable"."rows_export" AS "r"',
      database: 'dynotable',
      workGroup: 'primary',
      outputLocation: 's3://results/',
      pollMs: 10,
    });
    if (outcome.status !== 'done') throw new Error(JSON.stringify(outcome));
    expect(outcome.rows).toHaveLength(1500);
    expect(new Set(outcome.rows.map((r) => text(r[0] ?? undefined))).size).toBe(1500);
    expect(server.calls.filter((c) => c === 'AmazonAthena.GetQueryResults').length - before).toBe(2);
  });

  it("reports a failed query with Athena's reason", async () => {
    const { athena } = clients(server.endpoint);
    const outcome = await runAthenaQuery(athena, {
      sql: 'SELECT "nope" FROM "dynotable"."shop_export"',
      database: 'dynotable',
      workGroup: 'primary',
      outputLocation: 's3://results/',
      pollMs: 10,
    });
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.reason).toMatch(/nope/);
  });

  it('cancels a running query with StopQueryExecution', async () => {
    const { glue, athena } = clients(slow.endpoint);
    const location = await writeExport('01700000000000-cccc0001', SHOP_ITEMS);
    await ensureGlueTable(
      glue,
      'dynotable',
      glueTableInput({ name: 'shop_export', root, location, exportArn: 'arn:z' }).table,
    );
    const abort = new AbortController();
    const outcome = await runAthenaQuery(athena, {
      sql: 'SELECT count(*) FROM "dynotable"."shop_export"',
      database: 'dynotable',
      workGroup: 'primary',
      outputLocation: 's3://results/',
      pollMs: 10,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.state === 'RUNNING') abort.abort();
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(slow.calls).toContain('AmazonAthena.StopQueryExecution');
    // The query itself stopped on the server (it would otherwise run for a minute), as the SDK reads it back.
    const after = await athena.send(
      new GetQueryExecutionCommand({ QueryExecutionId: outcome.queryExecutionId }),
    );
    expect(after.QueryExecution?.Status?.State).toBe('CANCELLED');
    expect(after.QueryExecution?.Status?.StateChangeReason).toMatch(/cancelled/i);
  });
});
