import type { CastType, Expr, FrameBound, OrderItem, PathPart, Query, WindowSpec } from './ast';
import { TokenCursor } from './token-cursor';
import { SqlError, SqlErrorCodes } from './sql-error';
import { refusedDateKeyword } from './unsupported';

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
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
  DATETIME: 'TIMESTAMP',
  TIMESTAMPTZ: 'TIMESTAMP',
};

/** Reserved words that are also string functions when a "(" follows: LEFT(s, 3), RIGHT(s, 3). */
const RESERVED_FUNCTIONS = new Set(['LEFT', 'RIGHT']);

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
      if (this.peekQuery()) {
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
        case 'EXTRACT':
          if (this.peekOp('(', 1)) return this.extract();
          break;
        case 'TRIM':
          if (this.peekOp('(', 1)) return this.trim();
          break;
        case 'EXISTS': {
          this.next();
          this.expectOp('(');
          const query = this.parseQuery();
          this.expectOp(')');
          return { kind: 'exists', query, negated: false, span: this.span(token.start) };
        }
      }
      if (this.peekOp('(', 1) && (!this.isReserved(token) || RESERVED_FUNCTIONS.has(token.upper)))
        return this.call();
    }
    if (token.kind === 'ident' || token.kind === 'quoted') {
      if (this.isReserved(token))
        this.fail(`Expected a value or a name but found the keyword ${token.upper}`, token);
      const refused = this.peekOp('.', 1) ? undefined : refusedDateKeyword(token);
      if (refused) throw new SqlError(SqlErrorCodes.unsupported, refused, this.text, token);
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

  /** True when a query starts here (after an opening parenthesis). */
  protected peekQuery(): boolean {
    return this.peekKeyword('SELECT') || this.peekKeyword('WITH');
  }

  private call(): Expr {
    const name = this.next();
    this.expectOp('(');
    if (this.acceptOp('*')) {
      this.expectOp(')');
      const over = this.over();
      return {
        kind: 'call',
        name: name.upper,
        args: [],
        distinct: false,
        star: true,
        over,
        span: this.span(name.start),
      };
    }
    const distinct = this.acceptKeyword('DISTINCT');
    const args: Expr[] = [];
    if (!this.peekOp(')')) {
      do args.push(this.expression());
      while (this.acceptOp(','));
    }
    if ((name.upper === 'SUBSTRING' || name.upper === 'SUBSTR') && args.length === 1) {
      // SQL's own spelling: SUBSTRING(s FROM start [FOR count]), or SUBSTRING(s FOR count).
      if (this.acceptKeyword('FROM')) args.push(this.expression());
      else if (this.peekKeyword('FOR'))
        args.push({ kind: 'literal', value: { type: 'number', text: '1' }, span: name });
      if (this.acceptKeyword('FOR')) args.push(this.expression());
    }
    this.expectOp(')');
    if (name.upper === 'GROUPING' && !distinct)
      return { kind: 'grouping', args, span: this.span(name.start) };
    const over = this.over();
    return { kind: 'call', name: name.upper, args, distinct, star: false, over, span: this.span(name.start) };
  }

  /**
   * SQL's TRIM([BOTH | LEADING | TRAILING] [characters] FROM s) is TRIM, LTRIM or RTRIM(s
   * [, characters]); TRIM(s) and TRIM(s, characters) are ordinary calls. A side word followed by
   * ")" or "," is an attribute of that name: TRIM(leading).
   */
  private trim(): Expr {
    const start = this.peek();
    const sides = { BOTH: 'TRIM', LEADING: 'LTRIM', TRAILING: 'RTRIM' } as const;
    const sideToken = this.peek(2);
    const side =
      sideToken.kind === 'ident' && sideToken.upper in sides && !this.peekOp(')', 3) && !this.peekOp(',', 3)
        ? (sideToken.upper as keyof typeof sides)
        : undefined;
    if (side === undefined && !this.sqlTrimAhead()) return this.call();
    this.next();
    this.expectOp('(');
    if (side) this.next();
    const characters = this.peekKeyword('FROM') ? undefined : this.expression();
    this.expectKeyword('FROM', 'Expected FROM in TRIM(LEADING characters FROM string)');
    const value = this.expression();
    this.expectOp(')');
    return {
      kind: 'call',
      name: sides[side ?? 'BOTH'],
      args: characters ? [value, characters] : [value],
      distinct: false,
      star: false,
      span: this.span(start.start),
    };
  }

  /** TRIM(FROM s) or TRIM('x' FROM s): a FROM at the call's own depth before its ")". */
  private sqlTrimAhead(): boolean {
    let depth = 0;
    for (let ahead = 2; ; ahead++) {
      const token = this.peek(ahead);
      if (token.kind === 'eof') return false;
      if (token.kind === 'op' && token.text === '(') depth++;
      else if (token.kind === 'op' && token.text === ')' && depth-- === 0) return false;
      else if (depth === 0 && token.kind === 'ident' && token.upper === 'FROM') return true;
    }
  }

  /** EXTRACT(part FROM x) is DATE_PART('part', x). */
  private extract(): Expr {
    const start = this.next();
    this.expectOp('(');
    const part = this.next();
    if (part.kind !== 'ident' && part.kind !== 'string')
      this.fail('Expected a date part such as YEAR, MONTH or DAY after EXTRACT(', part);
    this.expectKeyword('FROM', 'Expected FROM in EXTRACT(part FROM value)');
    const value = this.expression();
    this.expectOp(')');
    const partLiteral: Expr = {
      kind: 'literal',
      value: { type: 'string', value: part.text.toLowerCase() },
      span: part,
    };
    return {
      kind: 'call',
      name: 'DATE_PART',
      args: [partLiteral, value],
      distinct: false,
      star: false,
      span: this.span(start.start),
    };
  }

  private over(): WindowSpec | undefined {
    const start = this.peek();
    if (!this.acceptKeyword('OVER')) return undefined;
    if (!this.peekOp('('))
      this.fail(
        'Named windows (OVER w) are not supported; write the window in place: OVER (PARTITION BY ...)',
        this.peek(),
      );
    this.next();
    const partitionBy: Expr[] = [];
    if (this.acceptKeyword('PARTITION')) {
      this.expectKeyword('BY', 'Expected BY after PARTITION');
      do partitionBy.push(this.expression());
      while (this.acceptOp(','));
    }
    const orderBy = this.acceptKeyword('ORDER') ? this.orderItems() : [];
    let frame: WindowSpec['frame'];
    const unitToken = this.peek();
    if (this.acceptKeyword('ROWS') || this.acceptKeyword('RANGE')) {
      const unit = unitToken.upper as 'ROWS' | 'RANGE';
      let startBound: FrameBound;
      let endBound: FrameBound = { kind: 'currentRow' };
      if (this.acceptKeyword('BETWEEN')) {
        startBound = this.frameBound();
        this.expectKeyword('AND', 'Expected AND in BETWEEN start AND end');
        endBound = this.frameBound();
      } else startBound = this.frameBound();
      frame = { unit, start: startBound, end: endBound, span: this.span(unitToken.start) };
    } else if (this.peekKeyword('GROUPS')) {
      this.fail('GROUPS frames are not supported; use ROWS or RANGE', this.peek());
    }
    this.expectOp(')');
    return { partitionBy, orderBy, frame, span: this.span(start.start) };
  }

  private frameBound(): FrameBound {
    if (this.acceptKeyword('UNBOUNDED')) {
      if (this.acceptKeyword('PRECEDING')) return { kind: 'unboundedPreceding' };
      this.expectKeyword('FOLLOWING', 'Expected PRECEDING or FOLLOWING after UNBOUNDED');
      return { kind: 'unboundedFollowing' };
    }
    if (this.acceptKeyword('CURRENT')) {
      this.expectKeyword('ROW', 'Expected ROW after CURRENT');
      return { kind: 'currentRow' };
    }
    const offset = this.expression();
    if (this.acceptKeyword('PRECEDING')) return { kind: 'preceding', offset };
    this.expectKeyword('FOLLOWING', 'Expected PRECEDING or FOLLOWING after the frame offset');
    return { kind: 'following', offset };
  }

  /** The list after ORDER (BY is next): shared by ORDER BY and OVER (ORDER BY ...). */
  protected orderItems(): OrderItem[] {
    this.expectKeyword('BY', 'Expected BY after ORDER');
    const items: OrderItem[] = [];
    do {
      const expr = this.expression();
      const descending = this.acceptKeyword('DESC');
      if (!descending) this.acceptKeyword('ASC');
      let nullsFirst: boolean | undefined;
      if (this.acceptKeyword('NULLS')) {
        if (this.acceptKeyword('FIRST')) nullsFirst = true;
        else {
          this.expectKeyword('LAST', 'Expected FIRST or LAST after NULLS');
          nullsFirst = false;
        }
      }
      items.push({ expr, descending, nullsFirst });
    } while (this.acceptOp(','));
    return items;
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
    if (!type) this.fail('Unknown type; use NUMBER, INTEGER, STRING, BOOLEAN, DATE or TIMESTAMP', typeToken);
    if (this.acceptOp('(')) {
      while (!this.peekOp(')') && this.peek().kind !== 'eof') this.next();
      this.expectOp(')');
    }
    this.expectOp(')');
    return { kind: 'cast', operand, type, span: this.span(start.start) };
  }
}
