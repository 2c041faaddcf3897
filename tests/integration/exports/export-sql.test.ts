import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import type { AttributeValue } from '../../../src/shared/dynamo/attribute-value';
import type { ExportStateView, OpenedExportView } from '../../../src/shared/ipc/exports';
import type { SqlResultSummary, SqlWindow } from '../../../src/shared/ipc/sql';
import type { SqlCatalog } from '../../../src/shared/sql/catalog';
import type { SqlPlan } from '../../../src/shared/sql/plan';
import { startBrowserCore, type BrowserCore } from '../../support/browser-core';
import { rawPutAll } from '../../support/copy-oracle';
import { uniqueTableName } from '../../support/dynamo-local';
import { comparable } from '../../support/duckdb-oracle';
import { type ExportStack, runToDone, startExportStack } from '../../support/exports/export-stack';
import { startKeyProxy, type KeyProxy } from '../../support/key-proxy';
import { rawDynamo } from '../../support/raw-dynamo';

/**
 * SQL over an opened export (`FROM export."<name>"`) through the real browser-mode core: the
 * statement reads the export's files in s3rver, never the table (it is deleted first), and a
 * GROUP BY agrees with DuckDB reading the same files.
 */
/**
 * A database of its own on the shared DynamoDB Local: `sql:catalog` describes every table there,
 * and on the shared one that is every other file's tables too (over a minute under load).
 */
let own: KeyProxy;
let dynamoEndpoint: string;
const bucket = 'sql-exports';
const STATUSES = ['NEW', 'PAID', 'SHIPPED', 'RETURNED'];
/** A nested number DynamoDB keeps as written; SQL once printed it back as -1E-36. */
const TINY = `-0.${'0'.repeat(35)}1`;
let stack: ExportStack;
let app: BrowserCore;
let opened: OpenedExportView;
let folder: string;

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names what done.value holds
const run = <T>(channel: string, payload: Record<string, unknown>) => runToDone<T>(app, channel, payload);

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const answer = await app.call<T>(channel, payload);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.value;
}

async function sql(statement: string): Promise<{ summary: SqlResultSummary; rows: SqlWindow['rows'] }> {
  const { value: summary } = await run<SqlResultSummary>('sql:run', {
    connectionId: app.connectionId,
    sql: statement,
  });
  const window = await call<SqlWindow>('sql:window', { resultId: summary.resultId, offset: 0, limit: 1000 });
  return { summary, rows: window.rows };
}

const cell = (v: AttributeValue | null): unknown =>
  v === null || 'NULL' in v ? null : 'S' in v ? v.S : 'N' in v ? Number(v.N) : JSON.stringify(v);

beforeAll(async () => {
  own = await startKeyProxy(inject('dynamoEndpoint'));
  dynamoEndpoint = own.endpoint;
  stack = await startExportStack(dynamoEndpoint, { buckets: [bucket] });
  app = await startBrowserCore(stack.server.endpoint);
  const table = uniqueTableName('expsql');
  await rawDynamo(dynamoEndpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  });
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < 400; i++)
    items.push({
      pk: { S: `O#${i}` },
      status: { S: STATUSES[i % STATUSES.length] },
      // Every seventh order has no amount: SUM skips it in both engines.
      ...(i % 7 === 0 ? {} : { amount: { N: `${(i * 31) % 997}.${String(i % 100).padStart(2, '0')}` } }),
    });
  items.push({ pk: { S: 'TINY' }, m: { M: { x: { N: TINY } } }, v: { N: TINY } });
  await rawPutAll(dynamoEndpoint, table, items);
  const ref = { connectionId: app.connectionId, table };
  await call('exports:enablePitr', ref);
  const exported = await run<ExportStateView>('exports:start', { ...ref, bucket, prefix: 'sql' });
  expect(exported.value.status).toBe('COMPLETED');
  opened = (
    await run<OpenedExportView>('exports:open', { connectionId: app.connectionId, bucket, prefix: 'sql' })
  ).value;
  // From here on only the export's files hold the data.
  await rawDynamo(dynamoEndpoint, 'DeleteTable', { TableName: table });

  folder = await mkdtemp(path.join(tmpdir(), 'export-sql-'));
  const s3 = stack.s3.client();
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'sql/' }));
  for (const object of listed.Contents ?? []) {
    if (!object.Key?.endsWith('.json.gz')) continue;
    const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
    await writeFile(path.join(folder, path.basename(object.Key)), await body.Body!.transformToByteArray());
  }
  s3.destroy();
}, 120_000);

afterAll(async () => {
  await app.close();
  await stack.stop();
  await own.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('SQL over an opened export', () => {
  it('lists the export in the catalog and plans a read of its files with no read capacity', async () => {
    const catalog = await call<SqlCatalog>('sql:catalog', { connectionId: app.connectionId });
    expect(catalog.exports?.map((e) => e.name)).toContain(opened.name);
    const plan = await call<SqlPlan>('sql:plan', {
      connectionId: app.connectionId,
      sql: `SELECT * FROM export."${opened.name}" WHERE pk = 'O#1'`,
    });
    expect(plan.fetches.map((f) => f.call.operation)).toEqual(['ReadExport']);
    expect(plan.totals.rcu).toBe(0);
    expect(plan.notes.join(' ')).toMatch(/no(ne of the table's)? read capacity/);
  });

  it('runs a GROUP BY over the export equal to DuckDB reading the same files', async () => {
    const { summary, rows } = await sql(
      `SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM export."${opened.name}" GROUP BY status`,
    );
    expect(summary.fetches).toMatchObject([{ operation: 'ReadExport', consumedCapacity: 0, items: 401 }]);
    const ours = rows.map((row) => row.map(cell).map(comparable));

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await duck.runAndReadAll(
      `SELECT json_extract_string(json, '$.Item.status.S') AS status, COUNT(*) AS n,
              SUM(CAST(json_extract_string(json, '$.Item.amount.N') AS DECIMAL(38,4))) AS total
         FROM read_json_objects('${folder}/*.json.gz', format = 'newline_delimited') GROUP BY 1`,
    );
    const oracle = reader.getRowsJS().map((row) => row.map(comparable));
    const order = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(ours.sort(order)).toEqual(oracle.sort(order));
    expect(ours).toHaveLength(STATUSES.length + 1);
  });

  it('gives a nested number back as DynamoDB stored it, not -1E-36', async () => {
    const { rows } = await sql(`SELECT m, v, m.x AS x FROM export."${opened.name}" WHERE pk = 'TINY'`);
    expect(rows).toEqual([[{ M: { x: { N: TINY } } }, { N: TINY }, { N: TINY }]]);
  });

  it('names the opened exports when FROM export."…" names none of them', async () => {
    const answer = await app.call('sql:plan', {
      connectionId: app.connectionId,
      sql: 'SELECT * FROM export."nope"',
    });
    expect(answer).toMatchObject({ ok: false });
    expect(!answer.ok && answer.error.message).toContain(opened.name);
  });
});
