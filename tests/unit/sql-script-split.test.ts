import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../src/main/sql/parser/parser';
import { inScript, splitStatements } from '../../src/main/sql/parser/statements';

describe('a script split into statements (dynotable sql --file)', () => {
  it('splits at the ; the lexer finds, not at one in a string, a quoted name or a comment', () => {
    const script = [
      '-- first; still a comment',
      "SELECT 'it''s; here' AS \"a;b\", `c;d` FROM t; /* x; y */",
      'SELECT 2 FROM u -- trailing; comment',
      ';;  ; -- nothing here',
      'SELECT 3 FROM v',
    ].join('\n');
    const statements = splitStatements(script);
    expect(statements.map((s) => s.text)).toEqual([
      "SELECT 'it''s; here' AS \"a;b\", `c;d` FROM t",
      'SELECT 2 FROM u',
      'SELECT 3 FROM v',
    ]);
    // Each statement stands where it was in the script (for positions in the file).
    for (const s of statements) expect(script.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });

  it('refuses a script whose string is never closed, with its position', () => {
    expect(() => splitStatements("SELECT 1 FROM t;\nSELECT 'open")).toThrow(
      "This string is never closed with a quote (') (line 2, column 8)",
    );
  });

  it("gives a statement's error the line and column of the whole file", () => {
    const script = 'SELECT 1 FROM t;\n\n  SELECT *\n  FROM WHERE;';
    const second = splitStatements(script)[1]!;
    let caught: unknown;
    try {
      parseStatement(second.text);
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toBe('Expected a table name but found "WHERE" (line 2, column 8)');
    expect((inScript(caught, script, second) as Error).message).toBe(
      'Expected a table name but found "WHERE" (line 4, column 8)',
    );
    const other = new Error('not SQL');
    expect(inScript(other, script, second)).toBe(other);
  });
});
