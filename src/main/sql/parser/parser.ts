import type {
  CastType,
  Expr,
  FromItem,
  OrderItem,
  PathPart,
  Query,
  Select,
  SelectItem,
  Statement,
  Tail,
} from './ast';
import { ExpressionParser } from './expression-parser';
import { SqlError, SqlErrorCodes } from './sql-error';
import { tokenize } from './lexer';

const WRITES = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'ALTER',
  'MERGE',
  'REPLACE',
  'TRUNCATE',
  'UPSERT',
  'GRANT',
  'REVOKE',
  'EXEC',
  'EXECUTE',
  'CALL',
  'SET',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'COPY',
  'VACUUM',
  'ATTACH',
  'PRAGMA',
]);

/** Parses one SELECT statement (optionally ending in `;`); throws SqlError with a position. */
export function parseStatement(text: string): Statement {
  const parser = new Parser(text);
  return { query: parser.statement(), text };
}

class Parser extends ExpressionParser {
  constructor(text: string) {
    super(text, tokenize(text));
    this.parseQuery = () => this.query();
  }

  statement(): Query {
    const first = this.peek();
    if (first.kind === 'eof') this.fail('The statement is empty; write a SELECT', first);
    if (first.kind === 'ident' && WRITES.has(first.upper)) {
      throw new SqlError(
        SqlErrorCodes.readOnly,
        `${first.upper} is not allowed: the SQL workbench only reads (SELECT). Change items in the item editor`,
        this.text,
        first,
      );
    }
    if (first.kind === 'ident' && first.upper === 'WITH') {
      throw new SqlError(
        SqlErrorCodes.unsupported,
        'WITH (common table expressions) is not supported yet; use a subquery in FROM',
        this.text,
        first,
      );
    }
    const query = this.query();
    this.acceptOp(';');
    const rest = this.peek();
    if (rest.kind !== 'eof') {
      this.fail(
        rest.kind === 'ident' && rest.upper === 'SELECT'
          ? 'Only one statement can run at a time; select the one to run'
          : `Unexpected "${rest.text}" after the end of the statement`,
        rest,
      );
    }
    return query;
  }

  private query(): Query {
    let left = this.queryTerm();
    while (this.acceptKeyword('UNION')) {
      const all = this.acceptKeyword('ALL');
      if (!all) this.acceptKeyword('DISTINCT');
      const right = this.queryTerm();
      left = {
        kind: 'union',
        all,
        left,
        right,
        orderBy: [],
        span: { start: left.span.start, end: right.span.end },
      };
    }
    const tail = this.tail();
    if (tail.orderBy.length > 0 || tail.limit || tail.offset) {
      const hasTail = left.orderBy.length > 0 || left.limit !== undefined || left.offset !== undefined;
      if (hasTail)
        this.fail(
          'ORDER BY or LIMIT appears twice for the same query; wrap one part in a subquery',
          this.previous(),
        );
      Object.assign(left, tail);
    }
    return left;
  }

  private queryTerm(): Query {
    if (this.peekOp('(')) {
      const open = this.next();
      const inner = this.query();
      this.expectOp(')');
      inner.span = { start: open.start, end: this.previous().end };
      return inner;
    }
    return this.selectCore();
  }

  private selectCore(): Select {
    const start = this.expectKeyword('SELECT', 'Expected SELECT');
    const distinct = this.acceptKeyword('DISTINCT');
    if (!distinct) this.acceptKeyword('ALL');
    const items: SelectItem[] = [this.selectItem()];
    while (this.acceptOp(',')) items.push(this.selectItem());
    const from = this.acceptKeyword('FROM') ? this.fromClause() : undefined;
    const where = this.acceptKeyword('WHERE') ? this.expression() : undefined;
    const groupBy: Expr[] = [];
    if (this.acceptKeyword('GROUP')) {
      this.expectKeyword('BY', 'Expected BY after GROUP');
      do groupBy.push(this.expression());
      while (this.acceptOp(','));
    }
    const having = this.acceptKeyword('HAVING') ? this.expression() : undefined;
    return {
      kind: 'select',
      distinct,
      items,
      from,
      where,
      groupBy,
      having,
      orderBy: [],
      span: { start: start.start, end: this.previous().end },
    };
  }

  private selectItem(): SelectItem {
    const token = this.peek();
    if (this.acceptOp('*')) return { kind: 'star', span: token };
    if (
      (token.kind === 'ident' || token.kind === 'quoted') &&
      this.peekOp('.', 1) &&
      this.peekOp('*', 2) &&
      !this.isReserved(token)
    ) {
      this.next();
      this.next();
      const star = this.next();
      return { kind: 'star', qualifier: token.text, span: { start: token.start, end: star.end } };
    }
    const expr = this.expression();
    const alias = this.alias();
    return { kind: 'expr', expr, alias, span: { start: token.start, end: this.previous().end } };
  }

  private alias(): string | undefined {
    if (this.acceptKeyword('AS')) {
      const token = this.next();
      if (token.kind === 'ident' || token.kind === 'quoted' || token.kind === 'string') return token.text;
      this.fail('Expected a name after AS', token);
    }
    const token = this.peek();
    if (token.kind === 'quoted' || (token.kind === 'ident' && !this.isReserved(token)))
      return this.next().text;
    return undefined;
  }

  private fromClause(): FromItem {
    let left = this.fromPrimary();
    for (;;) {
      const token = this.peek();
      let type: 'inner' | 'left' | 'cross' | undefined;
      if (this.acceptOp(',')) type = 'cross';
      else if (this.acceptKeyword('CROSS')) {
        this.expectKeyword('JOIN', 'Expected JOIN after CROSS');
        type = 'cross';
      } else if (this.acceptKeyword('INNER')) {
        this.expectKeyword('JOIN', 'Expected JOIN after INNER');
        type = 'inner';
      } else if (this.acceptKeyword('LEFT')) {
        this.acceptKeyword('OUTER');
        this.expectKeyword('JOIN', 'Expected JOIN after LEFT');
        type = 'left';
      } else if (this.acceptKeyword('JOIN')) type = 'inner';
      else if (token.kind === 'ident' && (token.upper === 'RIGHT' || token.upper === 'FULL')) {
        throw new SqlError(
          SqlErrorCodes.unsupported,
          `${token.upper} JOIN is not supported; swap the tables and use LEFT JOIN`,
          this.text,
          token,
        );
      }
      if (!type) return left;
      const right = this.fromPrimary();
      let on: Expr | undefined;
      if (type !== 'cross') {
        this.expectKeyword('ON', `Expected ON after the joined table`);
        on = this.expression();
      }
      left = {
        kind: 'join',
        type,
        left,
        right,
        on,
        span: { start: left.span.start, end: this.previous().end },
      };
    }
  }

  private fromPrimary(): FromItem {
    const token = this.peek();
    if (this.peekOp('(')) {
      this.next();
      if (this.peekKeyword('SELECT') || this.peekOp('(')) {
        const query = this.query();
        this.expectOp(')');
        const alias = this.alias();
        if (!alias) this.fail('A subquery in FROM needs a name: (SELECT ...) AS name', this.peek());
        return { kind: 'subquery', query, alias, span: { start: token.start, end: this.previous().end } };
      }
      const inner = this.fromClause();
      this.expectOp(')');
      return inner;
    }
    const first = this.name('Expected a table name');
    let name = first;
    let schema: string | undefined;
    if (this.acceptOp('.')) {
      schema = first;
      name = this.name('Expected an entity view name after the table name');
    }
    const alias = this.alias();
    return { kind: 'table', name, schema, alias, span: { start: token.start, end: this.previous().end } };
  }

  private tail(): Tail {
    const orderBy: OrderItem[] = [];
    if (this.acceptKeyword('ORDER')) {
      this.expectKeyword('BY', 'Expected BY after ORDER');
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
        orderBy.push({ expr, descending, nullsFirst });
      } while (this.acceptOp(','));
    }
    let limit: Expr | undefined;
    let offset: Expr | undefined;
    if (this.acceptKeyword('LIMIT')) limit = this.expression();
    if (this.acceptKeyword('OFFSET')) offset = this.expression();
    return { orderBy, limit, offset };
  }
}

export type { CastType, PathPart };
