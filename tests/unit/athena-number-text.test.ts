import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalNumber, compareNumbers } from '../../src/shared/dynamo/number';
import { canonicalSql, compareKeyToLiteral, sortKeySql } from '../../src/main/athena/translate/number-text';
import { lit } from '../../src/main/athena/glue-names';
import { athenaOnDuck } from '../support/athena/duck-athena';

/**
 * Numbers no DECIMAL holds, carried as text on Athena (translate/number-text.ts): the canonical
 * text and the sort key are computed in SQL from any spelling a number can reach Athena in
 * (DynamoDB JSON's plain text, the Ion SerDe's Ion text: `1d-130`, `123.`, `1.50`, `-0.`) and
 * checked here against the project's own exact text arithmetic (`canonicalNumber`,
 * `compareNumbers`), an oracle that shares no code with the SQL.
 *
 * The stand-in runs the SQL as Trino documents each function used:
 * - `regexp_extract(string, pattern, group)`: the group of the first match, NULL when nothing
 *   matches (a bridge in duck-athena.ts; DuckDB alone gives '');
 * - `regexp_replace(string, pattern, replacement)`: every match replaced (a bridge; DuckDB alone
 *   replaces the first);
 * - `length`, `substr(string, start[, length])` (1-based), `rpad(string, size, padstring)`,
 *   `starts_with`, `||`, `IF`, `CAST(varchar AS BIGINT | DECIMAL(38, 37))`: the same in both;
 * - ROW comparison: Trino compares rows of orderable fields from the first field to the last
 *   (its row comparison operators), as DuckDB compares STRUCTs;
 * - `min_by(x, y)` / `max_by(x, y)`: x of the row with the least / greatest y, as DuckDB's.
 */
const SPELLINGS: string[][] = [
  // One number, several spellings each: all must give one canonical text and one key.
  ['1E-130', '1d-130', `0.${'0'.repeat(129)}1`, '10d-131', '0.1E-129'],
  ['9.99E+125', '999d123', `999${'0'.repeat(123)}`, '9.990d125'],
  ['-9.99E+125', '-999d123', `-999${'0'.repeat(123)}`],
  ['1.5', '1.50', '15d-1', '1.5d0', '0.15e1', '+1.5'],
  ['0', '0.', '-0.', '0.000', '0d5', '-0'],
  ['123', '123.', '1.23d2', '123.000'],
  ['-0.000000001', '-1d-9', '-1E-9', '-0.1e-8'],
  ['12345678901234567890123456789012345678', '1.2345678901234567890123456789012345678d37'],
  ['-1.2345678901234567890123456789012345679E-100', '-12345678901234567890123456789012345679d-137'],
];

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await athenaOnDuck('dynotable', []);
});
afterAll(() => duck.closeSync());

async function one(sql: string): Promise<unknown> {
  const reader = await duck.runAndReadAll(`SELECT ${sql}`);
  return reader.getRowsJson()[0]![0];
}

describe('numbers carried as text on Athena (issue 30)', () => {
  it('gives every spelling of a number the canonical text DynoTable gives it', async () => {
    for (const group of SPELLINGS)
      for (const text of group)
        expect(await one(canonicalSql(lit(text))), text).toBe(canonicalNumber(group[0]!));
    expect(await one(canonicalSql('CAST(NULL AS VARCHAR)'))).toBeNull();
  });

  it('orders by the sort key exactly as the numbers compare', async () => {
    const texts = SPELLINGS.flat();
    const sql = `SELECT t FROM (VALUES ${texts.map((t) => `(${lit(t)})`).join(', ')}) AS v(t) ORDER BY ${sortKeySql('t')}`;
    // The oracle reads each spelling as its group's first (compareNumbers knows no Ion `d`).
    const plain = new Map(SPELLINGS.flatMap((g) => g.map((t) => [t, g[0]!] as const)));
    const sorted = (await duck.runAndReadAll(sql)).getRowsJson().map((r) => plain.get(r[0] as string)!);
    expect(sorted).toHaveLength(texts.length);
    for (let i = 1; i < sorted.length; i++)
      expect(
        compareNumbers(sorted[i - 1]!, sorted[i]!),
        `${sorted[i - 1]} then ${sorted[i]}`,
      ).toBeLessThanOrEqual(0);
    // A NULL text has a NULL key, never a ROW of NULLs (which would sort among the numbers).
    expect(await one(`${sortKeySql('CAST(NULL AS VARCHAR)')} IS NULL`)).toBe(true);
  });

  it('compares with a literal of more than 38 digits the way that keeps the answer', async () => {
    const literal = '0.123456789012345678901234567890123456789'; // 39 significant digits
    const stored = ['0.12345678901234567890123456789012345678', '0.12345678901234567890123456789012345679'];
    for (const op of ['<', '<=', '>', '>=', '=', '<>'])
      for (const s of stored) {
        const expected = { '<': -1, '<=': -1, '>': 1, '>=': 1, '=': 0, '<>': 9 }[op]!;
        const c = compareNumbers(s, literal);
        const truth =
          op === '<>'
            ? c !== 0
            : op === '='
              ? c === 0
              : op.includes('=')
                ? c === expected || c === 0
                : c === expected;
        expect(await one(compareKeyToLiteral(sortKeySql(lit(s)), op, literal)), `${s} ${op} ${literal}`).toBe(
          truth,
        );
      }
  });

  it('reads a text that matches no pattern as Trino does: regexp_extract gives NULL', async () => {
    expect(await one("regexp_extract('abc', 'x(y)', 1)")).toBeNull();
    expect(await one("regexp_replace('a0b0', '0', '')")).toBe('ab');
  });
});
