import type { Token } from './lexer';
import { type SourceSpan, SqlError, SqlErrorCodes } from './sql-error';

/** Words that end an expression or a clause, so they cannot be bare names or aliases. */
const RESERVED = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'BY',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'QUALIFY',
  'NATURAL',
  'USING',
  'WINDOW',
  'OVER',
  'JOIN',
  'LEFT',
  'RIGHT',
  'INNER',
  'OUTER',
  'FULL',
  'CROSS',
  'ON',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'DISTINCT',
  'ALL',
  'EXISTS',
  'TRUE',
  'FALSE',
  'ASC',
  'DESC',
  'NULLS',
  'ESCAPE',
  'CAST',
  'WITH',
]);

/**
 * A position in the token list and the accept/expect helpers every grammar rule uses; failures
 * become SqlError with the offending token's span, so messages carry line and column.
 */
export class TokenCursor {
  protected pos = 0;

  constructor(
    protected readonly text: string,
    private readonly tokens: Token[],
  ) {}

  protected peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }
  protected next(): Token {
    const token = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos += 1;
    return token;
  }
  protected previous(): Token {
    return this.tokens[Math.max(0, this.pos - 1)]!;
  }
  /** From `start` to the end of the last token consumed. */
  protected span(start: number): SourceSpan {
    return { start, end: this.previous().end };
  }
  protected fail(message: string, span: SourceSpan): never {
    throw new SqlError(SqlErrorCodes.syntax, message, this.text, span);
  }
  protected isReserved(token: Token): boolean {
    return token.kind === 'ident' && RESERVED.has(token.upper);
  }
  protected peekKeyword(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'ident' && token.upper === word;
  }
  protected acceptKeyword(word: string): boolean {
    if (!this.peekKeyword(word)) return false;
    this.next();
    return true;
  }
  protected expectKeyword(word: string, message: string): Token {
    if (!this.peekKeyword(word)) this.fail(`${message}${this.found()}`, this.peek());
    return this.next();
  }
  protected peekOp(op: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'op' && token.text === op;
  }
  protected acceptOp(op: string): boolean {
    if (!this.peekOp(op)) return false;
    this.next();
    return true;
  }
  protected expectOp(op: string): Token {
    if (!this.peekOp(op)) this.fail(`Expected "${op}"${this.found()}`, this.peek());
    return this.next();
  }
  private found(): string {
    const token = this.peek();
    return token.kind === 'eof'
      ? ' but the statement ended'
      : ` but found "${token.kind === 'string' ? `'${token.text}'` : token.text}"`;
  }
  /** A table, alias or attribute name: unquoted (not reserved) or quoted. */
  protected name(message: string): string {
    const token = this.peek();
    if (token.kind === 'quoted' || (token.kind === 'ident' && !this.isReserved(token)))
      return this.next().text;
    return this.fail(`${message}${this.found()}`, token);
  }
}
