import type { BinaryOp, CastType, Expr, PathPart, Query } from './ast';
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

const CAST_TYPES: Record<string, CastType> = {
  NUMBER: 'NUMBER',
  NUMERIC: 'NUMBER',
  DECIMAL: 'NUMBER',
  INT: 'NUMBER',
  INTEGER: 'NUMBER',
  BIGINT: 'NUMBER',
  FLOAT: 'NUMBER',
  DOUBLE: 'NUMBER',
  REAL: 'NUMBER',
  N: 'NUMBER',
  STRING: 'STRING',
  VARCHAR: 'STRING',
  TEXT: 'STRING',
  CHAR: 'STRING',
  S: 'STRING',
  BOOLEAN: 'BOOLEAN',
  BOOL: 'BOOLEAN',
};

const COMPARISONS: Record<string, BinaryOp> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** Token helpers and the expression grammar; parser.ts adds statements and clauses on top. */
export class ExpressionParser {
  protected pos = 0;
  /** Set by the statement parser: subqueries inside expressions parse full queries. */
  protected parseQuery: () => Query = () => {
    throw new Error('no query parser');
  };

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

  expression(): Expr {
    return this.or();
  }

  private span(start: number): SourceSpan {
    return { start, end: this.previous().end };
  }

  private or(): Expr {
    let left = this.and();
    while (this.acceptKeyword('OR')) {
      const right = this.and();
      left = { kind: 'binary', op: 'OR', left, right, span: { start: left.span.start, end: right.span.end } };
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptKeyword('AND')) {
      const right = this.not();
      left = {
        kind: 'binary',
        op: 'AND',
        left,
        right,
        span: { start: left.span.start, end: right.span.end },
      };
    }
    return left;
  }

  private not(): Expr {
    const token = this.peek();
    if (this.acceptKeyword('NOT')) {
      const operand = this.not();
      return { kind: 'unary', op: 'NOT', operand, span: this.span(token.start) };
    }
    return this.predicate();
  }

  private predicate(): Expr {
    const left = this.additive();
    const start = left.span.start;
    const token = this.peek();
    if (token.kind === 'op' && COMPARISONS[token.text]) {
      this.next();
      const right = this.additive();
      return { kind: 'binary', op: COMPARISONS[token.text]!, left, right, span: this.span(start) };
    }
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      this.expectKeyword('NULL', 'Expected NULL after IS');
      return { kind: 'isNull', operand: left, negated, span: this.span(start) };
    }
    const negated =
      this.peekKeyword('NOT') && ['BETWEEN', 'IN', 'LIKE', 'ILIKE'].some((w) => this.peekKeyword(w, 1));
    if (negated) this.next();
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.additive();
      this.expectKeyword('AND', 'Expected AND in BETWEEN low AND high');
      const high = this.additive();
      return { kind: 'between', operand: left, low, high, negated, span: this.span(start) };
    }
    if (this.acceptKeyword('IN')) {
      this.expectOp('(');
      if (this.peekKeyword('SELECT')) {
        const query = this.parseQuery();
        this.expectOp(')');
        return { kind: 'inQuery', operand: left, query, negated, span: this.span(start) };
      }
      const items = [this.expression()];
      while (this.acceptOp(',')) items.push(this.expression());
      this.expectOp(')');
      return { kind: 'inList', operand: left, items, negated, span: this.span(start) };
    }
    const caseInsensitive = this.peekKeyword('ILIKE');
    if (this.acceptKeyword('LIKE') || this.acceptKeyword('ILIKE')) {
      const pattern = this.additive();
      const escape = this.acceptKeyword('ESCAPE') ? this.additive() : undefined;
      return {
        kind: 'like',
        operand: left,
        pattern,
        escape,
        negated,
        caseInsensitive,
        span: this.span(start),
      };
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op' || (token.text !== '+' && token.text !== '-' && token.text !== '||'))
        return left;
      this.next();
      const right = this.multiplicative();
      left = {
        kind: 'binary',
        op: token.text as BinaryOp,
        left,
        right,
        span: { start: left.span.start, end: right.span.end },
      };
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op' || (token.text !== '*' && token.text !== '/' && token.text !== '%'))
        return left;
      this.next();
      const right = this.unary();
      left = {
        kind: 'binary',
        op: token.text as BinaryOp,
        left,
        right,
        span: { start: left.span.start, end: right.span.end },
      };
    }
  }

  private unary(): Expr {
    const token = this.peek();
    if (token.kind === 'op' && (token.text === '-' || token.text === '+')) {
      this.next();
      const operand = this.unary();
      // Fold -<number> into the literal so -1E+125 stays one exact literal.
      if (token.text === '-' && operand.kind === 'literal' && operand.value.type === 'number') {
        return {
          kind: 'literal',
          value: { type: 'number', text: `-${operand.value.text}` },
          span: this.span(token.start),
        };
      }
      return { kind: 'unary', op: token.text, operand, span: this.span(token.start) };
    }
    return this.primary();
  }

  private primary(): Expr {
    const token = this.peek();
    if (token.kind === 'number') {
      this.next();
      return { kind: 'literal', value: { type: 'number', text: token.text }, span: token };
    }
    if (token.kind === 'string') {
      this.next();
      return { kind: 'literal', value: { type: 'string', value: token.text }, span: token };
    }
    if (token.kind === 'op' && token.text === '(') {
      this.next();
      if (this.peekKeyword('SELECT')) {
        const query = this.parseQuery();
        this.expectOp(')');
        return { kind: 'subquery', query, span: this.span(token.start) };
      }
      const inner = this.expression();
      this.expectOp(')');
      return inner;
    }
    if (token.kind === 'ident') {
      switch (token.upper) {
        case 'NULL':
          this.next();
          return { kind: 'literal', value: { type: 'null' }, span: token };
        case 'TRUE':
        case 'FALSE':
          this.next();
          return { kind: 'literal', value: { type: 'boolean', value: token.upper === 'TRUE' }, span: token };
        case 'CASE':
          return this.caseExpression();
        case 'CAST':
          return this.cast();
        case 'EXISTS': {
          this.next();
          this.expectOp('(');
          const query = this.parseQuery();
          this.expectOp(')');
          return { kind: 'exists', query, negated: false, span: this.span(token.start) };
        }
      }
      if (this.peekOp('(', 1) && !this.isReserved(token)) return this.call();
    }
    if (token.kind === 'ident' || token.kind === 'quoted') {
      if (this.isReserved(token))
        this.fail(`Expected a value or a name but found the keyword ${token.upper}`, token);
      return this.ref();
    }
    if (token.kind === 'eof') this.fail('The statement ended where a value was expected', token);
    return this.fail(`Expected a value or a name but found "${token.text}"`, token);
  }

  private ref(): Expr {
    const first = this.next();
    const parts: PathPart[] = [
      { kind: 'name', name: first.text, quoted: first.kind === 'quoted', span: first },
    ];
    for (;;) {
      if (this.peekOp('.') && (this.peek(1).kind === 'ident' || this.peek(1).kind === 'quoted')) {
        this.next();
        const part = this.next();
        parts.push({ kind: 'name', name: part.text, quoted: part.kind === 'quoted', span: part });
      } else if (this.peekOp('[')) {
        const open = this.next();
        const index = this.next();
        if (index.kind !== 'number' || !/^\d+$/.test(index.text))
          this.fail('A list index must be a whole number, like tags[0]', index);
        this.expectOp(']');
        parts.push({ kind: 'index', index: Number(index.text), span: this.span(open.start) });
      } else break;
    }
    return { kind: 'ref', parts, span: this.span(first.start) };
  }

  private call(): Expr {
    const name = this.next();
    this.expectOp('(');
    if (this.acceptOp('*')) {
      this.expectOp(')');
      return {
        kind: 'call',
        name: name.upper,
        args: [],
        distinct: false,
        star: true,
        span: this.span(name.start),
      };
    }
    const distinct = this.acceptKeyword('DISTINCT');
    const args: Expr[] = [];
    if (!this.peekOp(')')) {
      do args.push(this.expression());
      while (this.acceptOp(','));
    }
    this.expectOp(')');
    return { kind: 'call', name: name.upper, args, distinct, star: false, span: this.span(name.start) };
  }

  private caseExpression(): Expr {
    const start = this.next();
    const operand = this.peekKeyword('WHEN') ? undefined : this.expression();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptKeyword('WHEN')) {
      const when = this.expression();
      this.expectKeyword('THEN', 'Expected THEN');
      whens.push({ when, then: this.expression() });
    }
    if (whens.length === 0) this.fail('CASE needs at least one WHEN ... THEN ...', this.peek());
    const otherwise = this.acceptKeyword('ELSE') ? this.expression() : undefined;
    this.expectKeyword('END', 'Expected END to close CASE');
    return { kind: 'case', operand, whens, otherwise, span: this.span(start.start) };
  }

  private cast(): Expr {
    const start = this.next();
    this.expectOp('(');
    const operand = this.expression();
    this.expectKeyword('AS', 'Expected AS in CAST(value AS type)');
    const typeToken = this.next();
    const type = CAST_TYPES[typeToken.upper];
    if (!type) this.fail('Unknown type; use NUMBER, STRING or BOOLEAN', typeToken);
    if (this.acceptOp('(')) {
      while (!this.peekOp(')') && this.peek().kind !== 'eof') this.next();
      this.expectOp(')');
    }
    this.expectOp(')');
    return { kind: 'cast', operand, type, span: this.span(start.start) };
  }
}
