import { describe, expect, it } from 'vitest';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { exportNow } from '../support/athena/export-now';
import type { AthenaPlan } from '../../src/shared/ipc/athena';
import {
  ATHENA_SETTINGS as settings,
  ok,
  rowsOf,
  runStatement,
  useBigShop,
} from '../support/athena/big-shop';

/**
 * Issue 30 through the real core and SDK clients: a table of 300 accounts where one item holds
 * `refund`, balances of 29 digits and 38-digit numbers, exported to the local S3 and run on the
 * local Athena (DuckDB, which fails where a DECIMAL overflows, as Trino does). Athena's rows are
 * the local engine's, or the statement is refused before Athena is asked anything.
 */
const S = (s: string) => ({ S: s });
const N = (n: string) => ({ N: n });
const THIRTY_EIGHT = '12345678901234567890123456789012345678';

function account(i: number): Item {
  const item: Item = {
    PK: S(`ACCT#${String(i).padStart(3, '0')}`),
    SK: S('ACCOUNT'),
    balance: N(i % 50 === 0 ? `${i}2345678901234567890123456789`.slice(0, 29) : `${i}.25`),
  };
  if (i === 7) item.big = N(THIRTY_EIGHT);
  if (i === 8) item.big = N(`-${'9'.repeat(38)}`);
  if (i === 9) item.balance = N('0.000000001');
  if (i === 10) item.balance = N('0');
  if (i === 211) item.refund = N('12.5');
  if (i === 212) item.tiny = N(`0.${'0'.repeat(129)}1`);
  return item;
}

const ITEMS = Array.from({ length: 300 }, (_, i) => account(i));
const shop = useBigShop({
  prefixes: ['exact'],
  items: ITEMS,
  runMs: 0,
  buckets: ['exports', 'results', 'gone'],
});
const starts = () => shop.aws.calls.filter((c) => c === 'AmazonAthena.StartQueryExecution').length;

async function bothWays(id: string, sql: string, startExport = false) {
  const athena = await runStatement(shop.app, `athena-${id}`, sql, { settings, startExport });
  const local = await runStatement(shop.app, `local-${id}`, sql, { local: true });
  ok(await shop.app.call('sql:clearCache', { connectionId: shop.app.connectionId }));
  return {
    athena: await rowsOf(shop.app, athena.resultId),
    local: await rowsOf(shop.app, local.resultId),
    summary: athena,
  };
}

describe('Athena over an export gives the local rows, or refuses before it starts (issue 30)', () => {
  it('finds `refund`, which 1 item of 300 holds, instead of reading it as missing everywhere', async () => {
    const { athena, local } = await bothWays(
      'refund',
      `SELECT PK, refund FROM "${shop.table}" WHERE refund > 0`,
      true,
    );
    expect(local).toHaveLength(1);
    expect(athena).toEqual(local);
  });

  it('reads 38-digit numbers whole', async () => {
    const { athena, local } = await bothWays(
      'big',
      `SELECT PK, big FROM "${shop.table}" WHERE big IS NOT MISSING`,
    );
    expect(athena).toEqual(local);
    expect(athena.join(' ')).toContain(THIRTY_EIGHT);
  });

  it('WHERE balance > 0.0000000005 over 29-digit balances returns the local rows', async () => {
    const { athena, local } = await bothWays(
      'tiny-literal',
      `SELECT PK, balance FROM "${shop.table}" WHERE balance > 0.0000000005`,
    );
    expect(local.length).toBeGreaterThan(290);
    expect(athena).toEqual(local);
  });

  it('compares and returns a number no DECIMAL holds exactly, carried as text', async () => {
    // tiny (1E-130) and balance (29 digits) need more than 38 digits together: tiny travels as text.
    const { athena, local } = await bothWays(
      'tiny',
      `SELECT PK, tiny, MAX(tiny) OVER () AS top FROM "${shop.table}" WHERE tiny > 0 OR tiny = 1E-130`,
    );
    expect(local).toHaveLength(1);
    expect(athena).toEqual(local);
    expect(athena.join(' ')).toContain(`0.${'0'.repeat(129)}1`);
  });

  it('refuses a sum of a number no DECIMAL holds before Athena is asked anything, naming the attribute and its range', async () => {
    const before = starts();
    const refused = await shop.app.call('athena:run', {
      connectionId: shop.app.connectionId,
      sql: `SELECT SUM(tiny) FROM "${shop.table}"`,
      requestId: 'athena-tiny-sum',
      settings,
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('AthenaUnsupported');
      expect(refused.error.message).toMatch(
        /^Summing, averaging or computing with tiny cannot run on Athena: its numbers run from 1E-130/,
      );
    }
    expect(starts()).toBe(before);
  });

  it('says before the run that no item has an attribute the statement names', async () => {
    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: `SELECT PK FROM "${shop.table}" WHERE nothere = 1`,
      }),
    );
    expect(plan.translation?.ok).toBe(true);
    if (plan.translation?.ok)
      expect(plan.translation.notes).toContain(
        'No item has nothere: it reads as missing on Athena, as it does locally.',
      );
  });

  it('still plans when the newest export cannot be read, and says the run reads it first', async () => {
    // A newer export into a bucket that is then deleted: its files cannot be listed any more.
    const exportArn = await exportNow(shop.aws.endpoint, shop.table, { bucket: 'gone' });
    const s3 = shop.aws.s3.client();
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'gone' }));
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: 'gone',
        Delete: { Objects: (listed.Contents ?? []).map((o) => ({ Key: o.Key! })) },
      }),
    );
    await s3.send(new DeleteBucketCommand({ Bucket: 'gone' }));

    const plan = ok(
      await shop.app.call<AthenaPlan>('athena:plan', {
        connectionId: shop.app.connectionId,
        sql: `SELECT PK FROM "${shop.table}" WHERE refund > 0`,
      }),
    );
    expect(plan.athena.exports[0]?.exportArn).toBe(exportArn);
    expect(plan.translation?.ok).toBe(true);
    if (plan.translation?.ok)
      expect(plan.translation.notes[0]).toMatch(
        new RegExp(
          `^The export of ${shop.table} could not be read to type its columns \\(.+\\); this translation is from the items DynoTable has read, and the run reads the export's files before the query starts\\.$`,
        ),
      );
  });
});
