import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../src/shared/errors';
import { parseStatement } from '../../src/main/sql/parser/parser';

function failure(sql: string): AppFailure {
  try {
    parseStatement(sql);
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw new Error(`crashed instead of a SQL error: ${String(error)}`);
  }
  throw new Error(`parsed: ${sql}`);
}

describe('SQL parser', () => {
  it('parses every clause and construct the workbench supports', () => {
    const sql = `-- revenue
      SELECT DISTINCT u.name AS customer, COUNT(DISTINCT o.orderId), SUM(o.amount) total, o."weird.name", tags[0], a.b.c
      FROM Shop.orders AS o
      INNER JOIN users u ON o.userId = u.userId
      LEFT OUTER JOIN (SELECT 1 AS x) AS t ON t.x = 1
      CROSS JOIN payments
      WHERE o.amount BETWEEN -1.5E+3 AND 10 AND o.status NOT IN ('A', 'B') AND u.name NOT LIKE '%x%' ESCAPE '!'
        AND o.id IN (SELECT id FROM p) AND NOT EXISTS (SELECT 1) AND x IS NOT NULL AND CAST(y AS NUMBER) > (SELECT 2)
        AND CASE WHEN a THEN 1 ELSE 2 END = 1 /* block */
      GROUP BY 1, customer HAVING COUNT(*) > 1
      UNION ALL SELECT 1, 2, 3, 4, 5, 6
      ORDER BY 2 DESC NULLS LAST, 1 LIMIT 10 OFFSET 5;`;
    const { query } = parseStatement(sql);
    expect(query.kind).toBe('setop');
    expect(query.orderBy).toHaveLength(2);
  });

  it('reports the line and column of a mistake', () => {
    const error = failure('SELECT a\nFROM t\nWHERE a = = 1');
    expect(error.code).toBe('SqlSyntaxError');
    expect(error.details).toMatchObject({ line: 3, column: 11, offset: 26, length: 1 });
    expect(error.message).toMatch(/line 3, column 11/);
    expect(failure("SELECT 'open").details).toMatchObject({ line: 1, column: 8 });
    expect(failure('SELECT a FROM').message).toMatch(/statement ended/);
    expect(failure('SELECT a,, b FROM t').details).toMatchObject({ column: 10 });
  });

  it('refuses anything but SELECT with a clear read-only error', () => {
    for (const sql of [
      'DELETE FROM t',
      'update t set a = 1',
      'INSERT INTO t VALUES (1)',
      'DROP TABLE t',
      '  create table x (a int)',
    ]) {
      const error = failure(sql);
      expect(error.code).toBe('SqlReadOnly');
      expect(error.message).toMatch(/only reads \(SELECT\)/);
    }
    expect(failure('SELECT 1; DELETE FROM t').message).toMatch(/after the end of the statement/);
    expect(failure('SELECT 1; SELECT 2').message).toMatch(/one statement/);
    expect(failure('WITH x AS (SELECT 1) DELETE FROM t').code).toBe('SqlReadOnly');
    expect(failure('SELECT * FROM a JOIN b USING (id)').message).toMatch(
      /JOIN \.\.\. USING \(column\) is not supported; write ON a\.column = b\.column/,
    );
    expect(failure('SELECT * FROM a NATURAL JOIN b').message).toMatch(/NATURAL JOIN is not supported/);
    expect(failure('WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x').message).toMatch(
      /WITH RECURSIVE is not supported/,
    );
  });

  it('never crashes on garbage: every input either parses or gives a positioned SQL error', () => {
    const pieces = [
      'SELECT',
      'FROM',
      'WHERE',
      '(',
      ')',
      ',',
      '.',
      'a',
      '"q',
      "'s",
      '1',
      '1e',
      '*',
      '=',
      'AND',
      'JOIN',
      'ON',
      '[',
      ']',
      '[0]',
      'GROUP BY',
      'ORDER',
      'CASE',
      'END',
      'IN',
      'NOT',
      '--',
      '/*',
      ';',
      '||',
      'LIMIT',
      '\n',
      'é',
      '#',
    ];
    let x = 42;
    for (let i = 0; i < 3000; i++) {
      const words: string[] = [];
      const count = 1 + (i % 12);
      for (let k = 0; k < count; k++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        words.push(pieces[x % pieces.length]!);
      }
      const sql = words.join(i % 3 ? ' ' : '');
      try {
        parseStatement(sql);
      } catch (error) {
        expect(error, sql).toBeInstanceOf(AppFailure);
        const details = (error as AppFailure).details as { line: number; column: number };
        expect(details.line, sql).toBeGreaterThanOrEqual(1);
        expect(details.column, sql).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
