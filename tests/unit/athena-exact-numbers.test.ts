import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { canonicalNumber } from '../../src/shared/dynamo/number';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { translateToAthena, type GlueTarget } from '../../src/main/athena/translate/translate';
import { itemType } from '../../src/main/athena/glue-table';
import { ExportObserver } from '../../src/main/athena/export-schema';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { athenaExactRows, localExactRows, sortedRows } from '../support/athena/exact-rows';

/**
 * Issue 30: any number DynamoDB stores gives on Athena the local engine's answer, digit for
 * digit, or a refusal naming the attribute and its range before anything runs. The Glue table
 * and the translation are typed from the export's own items, as the Athena path types them.
 */
const S = (s: string) => ({ S: s });
const N = (n: string) => ({ N: n });
const THIRTY_EIGHT = '12345678901234567890123456789012345678';
const NINES = `-${'9'.repeat(38)}`;
const TWENTY_NINE = '12345678901234567890123456789';

const ACCOUNTS: Item[] = [
  { id: S('a1'), big: N(THIRTY_EIGHT), balance: N(TWENTY_NINE), amount: N('0.1'), rate: N('10') },
  { id: S('a2'), big: N(NINES), balance: N('0.000000001'), amount: N('0.2'), rate: N('11') },
  { id: S('a3'), big: N('7'), balance: N('1.5'), amount: N('1234567.891'), rate: N('12.5') },
  { id: S('a4'), big: N('0'), balance: N('-3.25'), amount: N('-0.001'), rate: N('99.999') },
  { id: S('a5'), big: N('-12'), balance: N('100'), amount: N('42') },
  { id: S('a6'), balance: N('0'), amount: N('999.999999999') },
  { id: S('a7'), balance: N(`-${TWENTY_NINE}`), amount: N('3') },
  { id: S('a8'), balance: N('0.000000005'), tiny: N(`0.${'0'.repeat(129)}1`) },
  { id: S('a9'), balance: N('0.000000001'), tiny: N(`999${'0'.repeat(123)}`) },
];
const ACCOUNTS_TABLE = tableInfo('Accounts', 'id');
const NOW = Date.parse('2024-07-01T00:00:00Z');

const seen = new ExportObserver();
for (const item of ACCOUNTS) seen.see(item);
const target: GlueTarget = {
  database: 'dynotable',
  tables: new Map([['Accounts', { glueTable: 'accounts_export', root: seen.root, complete: true }]]),
};
const catalog = { tables: [ACCOUNTS_TABLE], views: [] };
let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await athenaOnDuck('dynotable', [
    { glueTable: 'accounts_export', itemType: itemType(seen.root, []), items: ACCOUNTS },
  ]);
});
afterAll(() => duck.closeSync());

async function bothWays(sql: string) {
  const result = translateToAthena(sql, catalog, target);
  if (!result.ok) throw new Error(result.message);
  const local = runLocal(sql, [{ info: ACCOUNTS_TABLE, items: ACCOUNTS }], [], NOW);
  const athena = await athenaExactRows(duck, result.translation.sql);
  return { athena: sortedRows(athena.rows), local: sortedRows(localExactRows(local.rows)), result };
}

describe('numbers on Athena are exact or refused (issue 30)', () => {
  it('a 38-digit number and -(38 nines) are read whole, not failed as DECIMAL(38, 9)', async () => {
    const { athena, local } = await bothWays('SELECT id, big FROM Accounts WHERE big IS NOT MISSING');
    expect(athena).toEqual(local);
    expect(athena).toContainEqual(['a1', canonicalNumber(THIRTY_EIGHT)]);
    expect(athena).toContainEqual(['a2', canonicalNumber(NINES)]);
  });

  it('compares and orders 38-digit numbers exactly', async () => {
    const sql = `SELECT id FROM Accounts WHERE big < ${THIRTY_EIGHT} AND big > -${'9'.repeat(37)}`;
    const { athena, local } = await bothWays(sql);
    expect(athena).toEqual(local);
    expect(athena).toEqual([['a3'], ['a4'], ['a5']]);
    const ordered = translateToAthena('SELECT id FROM Accounts ORDER BY big DESC', catalog, target);
    if (!ordered.ok) throw new Error(ordered.message);
    const rows = await athenaExactRows(duck, ordered.translation.sql);
    expect(rows.rows.slice(0, 5)).toEqual([['a1'], ['a3'], ['a4'], ['a5'], ['a2']]);
  });

  it('WHERE balance > 0.0000000005 over 29-digit balances gives the local rows, with no DECIMAL(38, 10) overflow', async () => {
    const { athena, local, result } = await bothWays(
      'SELECT id, balance FROM Accounts WHERE balance > 0.0000000005',
    );
    expect(athena).toEqual(local);
    expect(athena.map((r) => r[0])).toEqual(['a1', 'a2', 'a3', 'a5', 'a8', 'a9']);
    // The literal is fitted to the column's own DECIMAL(38, 9), never the column widened to it.
    expect(result.translation.sql).not.toMatch(/0\.0000000005/);
  });

  it('every comparison with a literal finer than the column keeps the local answer', async () => {
    for (const op of ['>', '>=', '<', '<=', '=', '<>']) {
      for (const literal of [
        '0.0000000005',
        '-0.0000000005',
        '1.5000000000001',
        '1E+40',
        '-1E+40',
        '0.000000001',
      ]) {
        const { athena, local } = await bothWays(`SELECT id FROM Accounts WHERE balance ${op} ${literal}`);
        expect({ op, literal, rows: athena }).toEqual({ op, literal, rows: local });
      }
    }
  });

  it('BETWEEN and IN fit their literals the same way', async () => {
    for (const sql of [
      'SELECT id FROM Accounts WHERE balance BETWEEN 0.0000000005 AND 1E+30',
      'SELECT id FROM Accounts WHERE balance NOT BETWEEN -0.5 AND 0.0000000015',
      'SELECT id FROM Accounts WHERE balance IN (1.5, 0.0000000005, 100, 1E+40)',
      `SELECT id FROM Accounts WHERE big IN (${THIRTY_EIGHT}, 7.5, 0)`,
    ]) {
      const { athena, local } = await bothWays(sql);
      expect({ sql, rows: athena }).toEqual({ sql, rows: local });
    }
  });

  it('sums, adds and multiplies exactly where the digits fit', async () => {
    for (const sql of [
      'SELECT SUM(amount) AS s, MIN(amount) AS lo, MAX(amount) AS hi FROM Accounts',
      'SELECT id, amount + amount AS twice, amount * amount AS sq, -amount AS neg FROM Accounts WHERE amount IS NOT MISSING',
      'SELECT id, amount + 1 AS next, amount * 2 AS twice FROM Accounts WHERE big < 100',
    ]) {
      const { athena, local } = await bothWays(sql);
      expect({ sql, rows: athena }).toEqual({ sql, rows: local });
    }
  });

  it('divides exactly by a literal made of 2s and 5s (a product by its reciprocal), as the local engine does', async () => {
    // Trino would divide DECIMALs to the larger scale (7 / 2 over integers = 4); x / 4 is x * 0.25.
    const sql =
      'SELECT id, amount / 4 AS q, amount / 0.5 AS d, amount / 100 AS c, 7 / 2 AS h, amount / 0 AS z FROM Accounts WHERE amount IS NOT MISSING';
    const { athena, local, result } = await bothWays(sql);
    expect(athena).toEqual(local);
    expect(result.translation.sql).toContain('* 0.25)');
    expect(result.translation.sql).not.toMatch(/ \/ /);
    expect(athena).toContainEqual([
      'a3',
      '0.30864197275e6',
      '0.2469135782e7',
      '0.1234567891e5',
      '0.35e1',
      null,
    ]);
    // A 38-digit number halved needs 39 digits: refused, as any product past 38 is.
    const half = translateToAthena('SELECT big / 2 FROM Accounts', catalog, target);
    expect(half.ok).toBe(false);
    if (!half.ok)
      expect(half.message).toMatch(
        /big \/ 2 cannot run on Athena: its result can need 38 digits before the point and 1 after/,
      );
  });

  it('refuses a division whose quotient may not end, with the reason, before anything runs', () => {
    for (const sql of ['SELECT amount / 7 FROM Accounts', 'SELECT amount / balance FROM Accounts']) {
      const refused = translateToAthena(sql, catalog, target);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.message).toMatch(
          /cannot run on Athena: the local engine gives a quotient 38 significant digits/,
        );
        expect(refused.message).toMatch(/1 \/ 3/);
      }
    }
  });

  it('averages exactly where every number has the same whole digits, and refuses elsewhere, naming the range', async () => {
    // rate: 10, 11, 12.5 and 99.999, two digits before the point: AVG at 36 places is the local 38 digits.
    const exact = translateToAthena("SELECT AVG(rate) AS a FROM Accounts WHERE id <> 'a4'", catalog, target);
    if (!exact.ok) throw new Error(exact.message);
    expect(exact.translation.sql).toContain('AS DECIMAL(38, 36)))');
    const local = runLocal(
      "SELECT AVG(rate) AS a FROM Accounts WHERE id <> 'a4'",
      [{ info: ACCOUNTS_TABLE, items: ACCOUNTS }],
      [],
      NOW,
    );
    // Trino's AVG of a DECIMAL(38, 36): the sum over the count, rounded half up at 36 places
    // (the stand-in's AVG is a DOUBLE, so Trino's documented rule is computed here).
    const total = 335n * 10n ** 35n; // 10 + 11 + 12.5 = 33.5, unscaled at 36 places
    const trino = (2n * total + 3n) / (2n * 3n);
    const text = `${trino / 10n ** 36n}.${(trino % 10n ** 36n).toString().padStart(36, '0')}`;
    expect(localExactRows(local.rows)).toEqual([[canonicalNumber(text)]]);
    // The stand-in computes Trino's AVG the same way (duck-athena.ts's trinoAverages): the rows agree.
    const both = await bothWays("SELECT AVG(rate) AS a FROM Accounts WHERE id <> 'a4'");
    expect(both.athena).toEqual([[canonicalNumber(text)]]);
    expect(both.athena).toEqual(both.local);
    const spread = translateToAthena('SELECT AVG(amount) FROM Accounts', catalog, target);
    expect(spread.ok).toBe(false);
    if (!spread.ok)
      expect(spread.message).toMatch(
        /AVG\(amount\) cannot run on Athena: its numbers run from -0.001 to 1234567.891/,
      );
  });

  it('compares, groups and orders numbers no DECIMAL holds exactly, as text', async () => {
    // tiny runs from 1E-130 to 9.99E+125: 256 digits, so no DECIMAL; each shape runs, none refused.
    for (const sql of [
      'SELECT id FROM Accounts WHERE tiny > 0',
      'SELECT id FROM Accounts WHERE tiny = 1E-130',
      'SELECT id FROM Accounts WHERE tiny IN (9.99E+125, 5)',
      'SELECT id FROM Accounts WHERE tiny BETWEEN 1E-131 AND 1',
      'SELECT tiny, COUNT(*) FROM Accounts GROUP BY tiny',
      'SELECT DISTINCT tiny FROM Accounts',
      'SELECT COUNT(DISTINCT tiny) FROM Accounts',
      'SELECT MIN(tiny), MAX(tiny) FROM Accounts',
    ]) {
      const { athena, local, result } = await bothWays(sql);
      expect(athena, sql).toEqual(local);
      expect(result.translation.sql, sql).toMatch(/regexp_extract/);
    }
    const ordered = translateToAthena('SELECT id, tiny FROM Accounts ORDER BY tiny DESC', catalog, target);
    if (!ordered.ok) throw new Error(ordered.message);
    const rows = await athenaExactRows(duck, ordered.translation.sql);
    expect(rows.rows.slice(0, 2)).toEqual([
      ['a9', canonicalNumber(`999${'0'.repeat(123)}`)],
      ['a8', canonicalNumber('1E-130')],
    ]);
    expect(ordered.translation.numberText).toEqual([false, true]);
  });

  it('refuses before anything runs what Athena cannot hold, naming the attribute and its range', () => {
    for (const sql of [
      'SELECT SUM(tiny) FROM Accounts',
      'SELECT AVG(tiny) FROM Accounts',
      'SELECT tiny * 2 FROM Accounts',
    ]) {
      const tiny = translateToAthena(sql, catalog, target);
      expect(tiny.ok, sql).toBe(false);
      if (!tiny.ok) {
        expect(tiny.message).toMatch(/^Summing, averaging or computing with tiny cannot run on Athena/);
        expect(tiny.message).toMatch(/1E-130 to 9\.99E\+125/);
      }
    }
    const union = translateToAthena(
      'SELECT tiny FROM Accounts UNION SELECT big FROM Accounts',
      catalog,
      target,
    );
    expect(union.ok).toBe(false);
    if (!union.ok)
      expect(union.message).toMatch(
        /UNION of column 1 cannot run on Athena: one side holds numbers no DECIMAL holds/,
      );
    const sum = translateToAthena('SELECT SUM(big) FROM Accounts', catalog, target);
    expect(sum.ok).toBe(false);
    if (!sum.ok)
      expect(sum.message).toMatch(
        /The expression SUM\(big\) cannot run on Athena: 5 numbers of up to 38 digits/,
      );
    const mixed = translateToAthena('SELECT id FROM Accounts WHERE big > balance', catalog, target);
    expect(mixed.ok).toBe(false);
    if (!mixed.ok) expect(mixed.message).toMatch(/The expression big > balance cannot run on Athena/);
    const next = translateToAthena('SELECT big + 1 FROM Accounts', catalog, target);
    expect(next.ok).toBe(false);
    if (!next.ok)
      expect(next.message).toMatch(/big \+ 1 cannot run on Athena: its result can need 39 digits/);
  });
});
