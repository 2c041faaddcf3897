import { describe, expect, it } from 'vitest';
import { EXPORT_BYTES_PER_SECOND } from '../../src/main/athena/athena-plan';
import type { AthenaPlan, AthenaSavedSettings } from '../../src/shared/ipc/athena';
import type { OperationEvent } from '../../src/shared/ipc';
import type { SqlResultSummary } from '../../src/shared/ipc/sql';
import {
  ATHENA_SETTINGS as settings,
  GB,
  ok,
  rowsOf,
  runStatement,
  useBigShop,
} from '../support/athena/big-shop';

/**
 * The plan's local-vs-Athena choice and the Athena path through the real dispatcher and the
 * real SDK clients: a table DescribeTable reports as 200 GB (30 items in DynamoDB Local), its
 * export written by the local export server into a local S3, Glue and Athena on the local
 * Athena/Glue server. The Athena rows are compared with the local engine's over the same items.
 */
const shop = useBigShop({ prefixes: ['athena'], runMs: 50 });

const exportCalls = () => shop.aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length;

async function planOf(
  extra: { freshExport?: boolean; limits?: { bytes: number } } = {},
): Promise<AthenaPlan> {
  return ok(
    await shop.app.call<AthenaPlan>('athena:plan', {
      connectionId: shop.app.connectionId,
      sql: statement(),
      ...extra,
    }),
  );
}

const statement = () =>
  `SELECT PK, SK, status, total FROM "${shop.table}" WHERE status <> 'CANCELLED' AND SK BETWEEN 'ORDER#' AND 'ORDER#~'`;

describe('the plan for a table DescribeTable reports as 200 GB', () => {
  it('says the local scan is past the limit and shows both paths, starting nothing', async () => {
    const before = shop.aws.calls.length;
    const plan = await planOf();
    expect(plan.over.join(' ')).toMatch(/200 GB is more than the limit/);
    expect(plan.scannedTables).toEqual([shop.table]);
    expect(plan.local.bytes).toBe(200 * GB);
    expect(plan.local.rcu).toBe(Math.ceil((200 * GB) / 4096) / 2);
    expect(plan.athena.exportNeeded).toBe(true);
    expect(plan.athena.exports).toEqual([]);
    expect(plan.athena.costUsd).toBeGreaterThan(0.9);
    expect(plan.translation?.ok).toBe(true);
    if (plan.translation?.ok) expect(plan.translation.sql).toMatch(/"dynotable"\."ddb_athena/);
    const since = shop.aws.calls.slice(before);
    expect(since.some((c) => /Athena|Glue|ExportTableToPointInTime/.test(c))).toBe(false);
  });

  it('a limit the user raises past the table keeps the statement local', async () => {
    const plan = await planOf({ limits: { bytes: 300 * GB } });
    expect(plan.over).toEqual([]);
    expect(plan.translation).toBeUndefined();
  });

  it('refuses a statement Athena cannot run as translated, before anything starts', async () => {
    const before = shop.aws.calls.length;
    const refused = await shop.app.call('athena:run', {
      connectionId: shop.app.connectionId,
      sql: `SELECT CASE WHEN total > 0 THEN total ELSE 'refund' END FROM "${shop.table}"`,
      requestId: 'athena-refused-1',
      settings,
      startExport: true,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('AthenaUnsupported');
      expect(refused.error.message).toMatch(/CASE WHEN total > 0 .* cannot run on Athena/);
    }
    const since = shop.aws.calls.slice(before);
    expect(since.some((c) => /Athena|Glue|ExportTableToPointInTime/.test(c))).toBe(false);
  });

  it('needs the user to agree before it exports', async () => {
    const refused = await shop.app.call('athena:run', {
      connectionId: shop.app.connectionId,
      sql: statement(),
      requestId: 'athena-noexport-1',
      settings,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('ExportNeeded');
    expect(shop.aws.calls).not.toContain('DynamoDB_20120810.ExportTableToPointInTime');
  });

  it('exports, creates the Glue table, runs on Athena and gives the local rows', async () => {
    const requestId = 'athena-run-0001';
    const done = shop.app.waitFor(requestId);
    ok(
      await shop.app.call('athena:run', {
        connectionId: shop.app.connectionId,
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
    expect(shop.aws.calls).toContain('AWSGlue.CreateTable');

    // The user chose the local scan past the limit, as the workbench's "Scan locally anyway" does.
    const localSummary = await runStatement(shop.app, 'sql-local-0001', statement(), { local: true });
    expect(summary.columns).toEqual(localSummary.columns);
    expect(summary.total).toBe(localSummary.total);
    expect(summary.total).toBeGreaterThan(3);
    expect(await rowsOf(shop.app, summary.resultId)).toEqual(await rowsOf(shop.app, localSummary.resultId));
  });

  it('a second run reuses the recent export and the Glue table, and main remembers its settings', async () => {
    // The local run above cached the table: with it cached the local path reads nothing.
    expect((await planOf()).over).toEqual([]);
    ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
    const exportsBefore = exportCalls();
    const plan = await planOf();
    expect(plan.athena.exportNeeded).toBe(false);
    expect(plan.athena.exportSeconds).toBe(0);
    expect(plan.athena.exports).toHaveLength(1);
    // As the workbench sends it over a recent export: no export bucket.
    const { exportBucket: _bucket, exportPrefix: _prefix, ...overRecent } = settings;
    const summary = await runStatement(shop.app, 'athena-run-0002', statement(), {
      settings: { ...overRecent, workGroup: 'analysts' },
    });
    expect(summary.athena?.exports).toEqual([plan.athena.exports[0]!.exportArn]);
    expect(exportCalls()).toBe(exportsBefore);
    const saved = ok(
      await shop.app.call<AthenaSavedSettings>('athena:settings', { connectionId: shop.app.connectionId }),
    );
    expect(saved.athena).toEqual({ ...settings, workGroup: 'analysts' });
  });

  it('with freshExport, plans the export in and runs over a new one though a recent one exists', async () => {
    const reuse = await planOf();
    const fresh = await planOf({ freshExport: true });
    expect(fresh.athena.freshExport).toBe(true);
    // The recent export is still named, so the choice can say what is passed over.
    expect(fresh.athena.exports.map((e) => e.exportArn)).toEqual(
      reuse.athena.exports.map((e) => e.exportArn),
    );
    expect(fresh.athena.exportNeeded).toBe(true);
    expect(reuse.athena.exportSeconds).toBe(0);
    expect(fresh.athena.exportSeconds).toBe((200 * GB) / EXPORT_BYTES_PER_SECOND);
    // Before an export exists its billed size is the table's size, the upper bound.
    expect(fresh.athena.scannedBytes).toBe(200 * GB);
    expect(reuse.athena.scannedBytes).toBeLessThan(fresh.athena.scannedBytes);

    const exportsBefore = exportCalls();
    const summary = await runStatement(shop.app, 'athena-fresh-0001', statement(), {
      settings,
      freshExport: true,
    });
    expect(exportCalls()).toBe(exportsBefore + 1);
    expect(summary.athena?.exports).toHaveLength(1);
    expect(summary.athena?.exports[0]).not.toBe(reuse.athena.exports[0]!.exportArn);
    const local = await runStatement(shop.app, 'sql-local-fresh', statement(), { local: true });
    ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
    expect(await rowsOf(shop.app, summary.resultId)).toEqual(await rowsOf(shop.app, local.resultId));
    // The newest export is the one offered next.
    expect((await planOf()).athena.exports[0]!.exportArn).toBe(summary.athena?.exports[0]);
  });

  it("marks results grouped as the binder says, as the local engine's are", async () => {
    // Words a pattern would take for grouping, inside a string literal, and a real GROUP BY.
    const statements = [
      `SELECT PK, status FROM "${shop.table}" WHERE status <> 'max(1) group by count(2)'`,
      `SELECT status, COUNT(*) AS n FROM "${shop.table}" WHERE SK BETWEEN 'ORDER#' AND 'ORDER#~' GROUP BY status`,
    ];
    const seen: boolean[] = [];
    for (const [i, sql] of statements.entries()) {
      const onAthena = await runStatement(shop.app, `athena-grouped-${i}`, sql, { settings });
      ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
      const local = await runStatement(shop.app, `sql-grouped-${i}`, sql, { local: true });
      ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
      expect(onAthena.grouped).toBe(local.grouped);
      expect(onAthena.total).toBe(local.total);
      seen.push(onAthena.grouped);
    }
    expect(seen).toEqual([false, true]);
  });
});
