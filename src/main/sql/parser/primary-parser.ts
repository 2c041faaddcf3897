import type { CastType, Expr, PathPart, Query } from './ast';
import { TokenCursor } from './token-cursor';

const CAST_TYPES: Record<string, CastType> = {
  NUMBER: 'NUMBER',
  NUMERIC: 'NUMBER',
  DECIMAL: 'NUMBER',
  INT: 'INTEGER',
  INTEGER: 'INTEGER',
  BIGINT: 'INTEGER',
  SMALLINT: 'INTEGER',
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

/**
 * The tightest-binding expressions: literals, names and paths, parentheses, subqueries, function
 * calls, CASE and CAST. Everything inside them starts again at the loosest level, expression().
 */
export abstract class PrimaryParser extends TokenCursor {
  /** Set by the statement parser: subqueries inside expressions parse full queries. */
  protected parseQuery: () => Query = () => {
    throw new Error('no query parser');
  };

  abstract expression(): Expr;

  protected primary(): Expr {
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
    if (!type) this.fail('Unknown type; use NUMBER, INTEGER, STRING or BOOLEAN', typeToken);
    if (this.acceptOp('(')) {
      while (!this.peekOp(')') && this.peek().kind !== 'eof') this.next();
      this.expectOp(')');
    }
    this.expectOp(')');
    return { kind: 'cast', operand, type, span: this.span(start.start) };
  }
}
