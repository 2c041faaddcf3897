import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AthenaPlan } from '../../src/shared/ipc/athena';
import type { OperationEvent } from '../../src/shared/ipc';
import type { SqlResultSummary, SqlWindow } from '../../src/shared/ipc/sql';
import { localClient } from '../support/dynamo-local';
import { startBrowserCore, type BrowserCore } from '../support/browser-core';
import { startBigTableAws, type BigTableAws } from '../support/athena/big-table-aws';
import { SHOP_ITEMS } from '../support/athena/shop';
import { createShopTable } from './sql-support';

/**
 * The plan's local-vs-Athena choice and the Athena path through the real dispatcher and the
 * real SDK clients: a table DescribeTable reports as 200 GB (30 items in DynamoDB Local), its
 * export written by the local export server into a local S3, Glue and Athena on the local
 * Athena/Glue server. The Athena rows are compared with the local engine's over the same items.
 */
const GB = 1e9;
let dynamo: DynamoDBClient;
let table: string;
let aws: BigTableAws;
let app: BrowserCore;
const settings = {
  workGroup: 'primary',
  outputLocation: 's3://results/dynotable/',
  database: 'dynotable',
  exportBucket: 'exports',
  exportPrefix: 'dynotable',
};

beforeAll(async () => {
  dynamo = localClient(inject('dynamoEndpoint'));
  table = await createShopTable(dynamo, SHOP_ITEMS, 'athena');
  aws = await startBigTableAws({
    dynamoEndpoint: inject('dynamoEndpoint'),
    sizes: new Map([[table, { sizeBytes: 200 * GB, itemCount: 400_000_000 }]]),
    buckets: ['exports', 'results'],
    runMs: 50,
  });
  app = await startBrowserCore(aws.endpoint);
}, 60_000);
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

const statement = () =>
  `SELECT PK, SK, status, total FROM "${table}" WHERE status <> 'CANCELLED' AND SK BETWEEN 'ORDER#' AND 'ORDER#~'`;

describe('the plan for a table DescribeTable reports as 200 GB', () => {
  it('says the local scan is past the limit and shows both paths, starting nothing', async () => {
    const before = aws.calls.length;
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', { connectionId: app.connectionId, sql: statement() }),
    );
    expect(plan.over.join(' ')).toMatch(/200 GB is more than the limit/);
    expect(plan.scannedTables).toEqual([table]);
    expect(plan.local.bytes).toBe(200 * GB);
    expect(plan.local.rcu).toBe(Math.ceil((200 * GB) / 4096) / 2);
    expect(plan.athena.exportNeeded).toBe(true);
    expect(plan.athena.exports).toEqual([]);
    expect(plan.athena.costUsd).toBeGreaterThan(0.9);
    expect(plan.translation?.ok).toBe(true);
    if (plan.translation?.ok) expect(plan.translation.sql).toMatch(/"dynotable"\."ddb_athena/);
    const since = aws.calls.slice(before);
    expect(since.some((c) => /Athena|Glue|ExportTableToPointInTime/.test(c))).toBe(false);
  });

  it('a limit the user raises past the table keeps the statement local', async () => {
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', {
        connectionId: app.connectionId,
        sql: statement(),
        limits: { bytes: 300 * GB },
      }),
    );
    expect(plan.over).toEqual([]);
    expect(plan.translation).toBeUndefined();
  });

  it('refuses a statement Athena cannot run as translated, before anything starts', async () => {
    const before = aws.calls.length;
    const refused = await app.call('athena:run', {
      connectionId: app.connectionId,
      sql: `SELECT CASE WHEN total > 0 THEN total ELSE 'refund' END FROM "${table}"`,
      requestId: 'athena-refused-1',
      settings,
      startExport: true,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('AthenaUnsupported');
      expect(refused.error.message).toMatch(/CASE WHEN total > 0 .* cannot run on Athena/);
    }
    const since = aws.calls.slice(before);
    expect(since.some((c) => /Athena|Glue|ExportTableToPointInTime/.test(c))).toBe(false);
  });

  it('needs the user to agree before it exports', async () => {
    const refused = await app.call('athena:run', {
      connectionId: app.connectionId,
      sql: statement(),
      requestId: 'athena-noexport-1',
      settings,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('ExportNeeded');
    expect(aws.calls).not.toContain('DynamoDB_20120810.ExportTableToPointInTime');
  });

  it('exports, creates the Glue table, runs on Athena and gives the local rows', async () => {
    const requestId = 'athena-run-0001';
    const done = app.waitFor(requestId);
    ok(
      await app.call('athena:run', {
        connectionId: app.connectionId,
        sql: statement(),
        requestId,
        settings,
        startExport: true,
      }),
    );
    const { events, last } = await done;
    if (last.type !== 'done') throw new Error(JSON.stringify(last));
    const summary = last.value as SqlResultSummary;
    expect(summary.athena?.dataScannedBytes).toBeGreaterThan(0);
    expect(summary.athena?.exports).toHaveLength(1);
    const messages = events.flatMap((e: OperationEvent) =>
      e.type === 'progress' ? [e.progress.message] : [],
    );
    expect(messages.some((m) => m?.startsWith('Exporting'))).toBe(true);
    expect(messages.some((m) => m?.startsWith('Athena: SUCCEEDED'))).toBe(true);
    expect(aws.calls).toContain('AWSGlue.CreateTable');

    const localId = 'sql-local-0001';
    const localDone = app.waitFor(localId);
    // The user chose the local scan past the limit, as the workbench's "Scan locally anyway" does.
    ok(
      await app.call('sql:run', {
        connectionId: app.connectionId,
        sql: statement(),
        requestId: localId,
        local: true,
      }),
    );
    const local = await localDone;
    if (local.last.type !== 'done') throw new Error(JSON.stringify(local.last));
    const localSummary = local.last.value as SqlResultSummary;
    expect(summary.columns).toEqual(localSummary.columns);
    expect(summary.total).toBe(localSummary.total);
    expect(summary.total).toBeGreaterThan(3);
    expect(await rowsOf(summary.resultId)).toEqual(await rowsOf(localSummary.resultId));
  });

  it('a second run reuses the recent export and the Glue table', async () => {
    // The local run above cached the table: with it cached the local path reads nothing.
    const cachedPlan = ok(
      await app.call<AthenaPlan>('athena:plan', { connectionId: app.connectionId, sql: statement() }),
    );
    expect(cachedPlan.over).toEqual([]);
    ok(await app.call('sql:clearCache', { connectionId: app.connectionId }));
    const exportsBefore = aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length;
    const plan = ok(
      await app.call<AthenaPlan>('athena:plan', { connectionId: app.connectionId, sql: statement() }),
    );
    expect(plan.athena.exportNeeded).toBe(false);
    expect(plan.athena.exports).toHaveLength(1);
    const requestId = 'athena-run-0002';
    const done = app.waitFor(requestId);
    ok(
      await app.call('athena:run', { connectionId: app.connectionId, sql: statement(), requestId, settings }),
    );
    const { last } = await done;
    expect(last.type).toBe('done');
    expect(aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length).toBe(exportsBefore);
  });

  it("marks results grouped as the binder says, as the local engine's are", async () => {
    const run = async (channel: 'athena:run' | 'sql:run', sql: string, requestId: string) => {
      const done = app.waitFor(requestId);
      ok(
        await app.call(channel, {
          connectionId: app.connectionId,
          sql,
          requestId,
          ...(channel === 'athena:run' ? { settings } : { local: true }),
        }),
      );
      const { last } = await done;
      if (last.type !== 'done') throw new Error(JSON.stringify(last));
      return last.value as SqlResultSummary;
    };
    // Words a pattern would take for grouping, inside a string literal, and a real GROUP BY.
    const statements = [
      `SELECT PK, status FROM "${table}" WHERE status <> 'max(1) group by count(2)'`,
      `SELECT status, COUNT(*) AS n FROM "${table}" WHERE SK BETWEEN 'ORDER#' AND 'ORDER#~' GROUP BY status`,
    ];
    const seen: boolean[] = [];
    for (const [i, sql] of statements.entries()) {
      const onAthena = await run('athena:run', sql, `athena-grouped-${i}`);
      ok(await app.call('sql:clearCache', { connectionId: app.connectionId }));
      const local = await run('sql:run', sql, `sql-grouped-${i}`);
      ok(await app.call('sql:clearCache', { connectionId: app.connectionId }));
      expect(onAthena.grouped).toBe(local.grouped);
      expect(onAthena.total).toBe(local.total);
      seen.push(onAthena.grouped);
    }
    expect(seen).toEqual([false, true]);
  });
});
