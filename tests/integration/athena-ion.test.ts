import { describe, expect, it } from 'vitest';
import type { AthenaPlan } from '../../src/shared/ipc/athena';
import type { SqlResultSummary } from '../../src/shared/ipc/sql';
import { exportNow } from '../support/athena/export-now';
import {
  ATHENA_SETTINGS as settings,
  ok,
  rowsOf,
  runStatement,
  useBigShop,
} from '../support/athena/big-shop';

/**
 * The Athena path over an Ion export: the same items in two tables, one exported in Amazon Ion
 * (DynamoDB's Ion format, read back by ion-js in the local Athena server) and one in DynamoDB
 * JSON; each statement's Athena rows over both exports are compared with the local engine's.
 */
const shop = useBigShop({
  prefixes: ['athenaion', 'athenajson'],
  runMs: 0,
  ready: async (ready) => {
    await exportNow(ready.aws.endpoint, ready.tables[0]!, {
      bucket: 'exports',
      prefix: 'dynotable',
      format: 'ION',
    });
  },
});
const ionTable = () => shop.tables[0]!;
const jsonTable = () => shop.tables[1]!;

let serial = 0;
async function run(sql: string, local: boolean): Promise<SqlResultSummary> {
  serial += 1;
  const summary = await runStatement(
    shop.app,
    `ion-${local ? 'local' : 'athena'}-${serial}`,
    sql,
    local ? { local: true } : { settings, startExport: true },
  );
  if (local) ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
  return summary;
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
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: STATEMENTS[0]!(ionTable()),
      }),
    );
    expect(plan.athena.exportNeeded).toBe(false);
    expect(plan.athena.exports).toHaveLength(1);
    if (!plan.translation?.ok) throw new Error(JSON.stringify(plan.translation));
    expect(plan.translation.sql).toMatch(/"item"\."total"/);
    expect(plan.translation.sql).not.toMatch(/"total"\."n"/);
    // Typed from the Ion export's own files (main reads them): totals of up to 7 digits before
    // the point and 9 after are DECIMAL(16, 9), not the DECIMAL(38, 9) guess of a sample.
    expect(plan.translation.sql).toMatch(/"item"\."total" AS DECIMAL\(16, 9\)\)/);
    expect(plan.translation.sql).not.toMatch(/DECIMAL\(38, 9\)/);
  });

  it('says before the run that no item of the Ion export has an attribute the statement names', async () => {
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: `SELECT PK, refund FROM "${ionTable()}" WHERE refund > 0`,
      }),
    );
    if (!plan.translation?.ok) throw new Error(JSON.stringify(plan.translation));
    expect(plan.translation.notes.join('\n')).toMatch(/No item has refund/);
  });

  it('gives the rows of the DynamoDB JSON export and of the local engine', async () => {
    for (const statement of STATEMENTS) {
      const onIon = await run(statement(ionTable()), false);
      const onJson = await run(statement(jsonTable()), false);
      const local = await run(statement(ionTable()), true);
      expect(onIon.athena?.exports).toHaveLength(1);
      expect(onIon.columns).toEqual(local.columns);
      expect(onIon.total).toBe(local.total);
      expect(onIon.total).toBeGreaterThan(0);
      const ionRows = await rowsOf(shop.app, onIon.resultId);
      expect(ionRows).toEqual(await rowsOf(shop.app, local.resultId));
      expect(ionRows).toEqual(await rowsOf(shop.app, onJson.resultId));
    }
    expect(shop.aws.calls).toContain('AWSGlue.CreateTable');
  }, 120_000);

  it('refuses, naming it, an attribute an Ion column cannot hold, which DynamoDB JSON can', async () => {
    const sql = (t: string) => `SELECT PK, price FROM "${t}" WHERE SK BETWEEN 'ORDER#' AND 'ORDER#~'`;
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: sql(ionTable()),
      }),
    );
    expect(plan.translation?.ok).toBe(false);
    if (plan.translation && !plan.translation.ok) {
      expect(plan.translation.construct).toMatch(/price/);
      expect(plan.translation.message).toMatch(/price holds S, N.*Ion.*DynamoDB JSON/);
    }
    const onJson = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: sql(jsonTable()),
      }),
    );
    expect(onJson.translation?.ok).toBe(true);
  });

  it('starts a fresh export when the user asks, though a recent one exists', async () => {
    const before = shop.aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length;
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: STATEMENTS[0]!(ionTable()),
      }),
    );
    const recent = plan.athena.exports[0]!.exportArn;
    const summary = await runStatement(shop.app, 'ion-fresh-1', STATEMENTS[0]!(ionTable()), {
      settings,
      freshExport: true,
    });
    expect(shop.aws.calls.filter((c) => c.endsWith('ExportTableToPointInTime')).length).toBe(before + 1);
    expect(summary.athena?.exports).toHaveLength(1);
    expect(summary.athena?.exports[0]).not.toBe(recent);
    const local = await run(STATEMENTS[0]!(ionTable()), true);
    expect(await rowsOf(shop.app, summary.resultId)).toEqual(await rowsOf(shop.app, local.resultId));
  });
});
