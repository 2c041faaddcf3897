import type {
  CastType,
  CommonTable,
  SetOperation,
  SetOperator,
  Expr,
  FromItem,
  JoinType,
  OrderItem,
  PathPart,
  Query,
  Select,
  SelectItem,
  Statement,
  Tail,
} from './ast';
import { GroupByParser } from './group-by-parser';
import { SqlError, SqlErrorCodes } from './sql-error';
import { type Token, tokenize } from './lexer';
import { findUnsupported, refusedJoinKind } from './unsupported';

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

/**
 * The last statement's parser and its tokens, kept until the next statement. V8 holds the hidden
 * class of a parser and of its tokens only while one is alive; once a statement's parser died,
 * the next collection dropped those classes and, with them, the optimised code of every parser
 * method that relied on them ("weak objects"), which the compiler then made again during a later
 * statement (sqlwin7: each slow steady round of bench:sql was such a recompile; docs/PERFORMANCE.md).
 */
let lastParser: Parser | undefined;

/** Parses one SELECT statement (optionally ending in `;`); throws SqlError with a position. */
export function parseStatement(text: string): Statement {
  const tokens = tokenize(text);
  try {
    lastParser = new Parser(text, tokens);
    return { query: lastParser.statement(), text };
  } catch (error) {
    const refusal =
      error instanceof SqlError && error.code === SqlErrorCodes.syntax && findUnsupported(tokens);
    if (refusal) throw new SqlError(SqlErrorCodes.unsupported, refusal.message, text, refusal.span);
    throw error;
  }
}

class Parser extends GroupByParser {
  constructor(text: string, tokens: Token[]) {
    super(text, tokens);
    this.parseQuery = () => this.query();
  }

  statement(): Query {
    const first = this.peek();
    if (first.kind === 'eof') this.fail('The statement is empty; write a SELECT', first);
    this.refuseWrite();
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

  private refuseWrite(): void {
    const token = this.peek();
    if (token.kind === 'ident' && WRITES.has(token.upper)) {
      throw new SqlError(
        SqlErrorCodes.readOnly,
        `${token.upper} is not allowed: the SQL workbench only reads (SELECT). Change items in the item editor`,
        this.text,
        token,
      );
    }
  }

  private query(): Query {
    const ctes = this.peekKeyword('WITH') ? this.withList() : undefined;
    let left = this.intersectTerm();
    for (
      let token = this.peek();
      this.acceptKeyword('UNION') || this.acceptKeyword('EXCEPT');
      token = this.peek()
    )
      left = this.setOperation(token.upper as SetOperator, left, () => this.intersectTerm());
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
    if (ctes) {
      if (left.ctes) this.fail('WITH appears twice for the same query; merge the two lists', ctes[0]!.span);
      left.ctes = ctes;
    }
    return left;
  }

  /** INTERSECT binds tighter than UNION and EXCEPT, as in the SQL standard. */
  private intersectTerm(): Query {
    let left = this.queryTerm();
    while (this.acceptKeyword('INTERSECT'))
      left = this.setOperation('INTERSECT', left, () => this.queryTerm());
    return left;
  }

  private setOperation(op: SetOperator, left: Query, operand: () => Query): SetOperation {
    const all = this.acceptKeyword('ALL');
    if (!all) this.acceptKeyword('DISTINCT');
    const right = operand();
    return {
      kind: 'setop',
      op,
      all,
      left,
      right,
      orderBy: [],
      span: { start: left.span.start, end: right.span.end },
    };
  }

  private withList(): CommonTable[] {
    const withToken = this.next();
    if (this.peekKeyword('RECURSIVE'))
      throw new SqlError(
        SqlErrorCodes.unsupported,
        'WITH RECURSIVE is not supported; DynamoDB hierarchies are usually read with begins_with on a sort key prefix',
        this.text,
        this.peek(),
      );
    const ctes: CommonTable[] = [];
    do {
      const start = this.peek();
      const name = this.name('Expected a name for the WITH query');
      let columns: string[] | undefined;
      if (this.acceptOp('(')) {
        columns = [];
        do columns.push(this.name('Expected a column name'));
        while (this.acceptOp(','));
        this.expectOp(')');
      }
      this.expectKeyword('AS', `Expected AS after WITH ${name}`);
      this.expectOp('(');
      const query = this.query();
      this.expectOp(')');
      if (ctes.some((c) => c.name.toLowerCase() === name.toLowerCase()))
        this.fail(`"${name}" is defined twice in WITH`, start);
      ctes.push({ name, columns, query, span: { start: start.start, end: this.previous().end } });
    } while (this.acceptOp(','));
    this.refuseWrite();
    if (!this.peekKeyword('SELECT') && !this.peekOp('('))
      this.fail('Expected SELECT after the WITH list', this.peek().kind === 'eof' ? withToken : this.peek());
    return ctes;
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
    let grouping: { groupBy: Expr[]; groupingSets?: number[][] } = { groupBy: [] };
    if (this.acceptKeyword('GROUP')) {
      this.expectKeyword('BY', 'Expected BY after GROUP');
      grouping = this.groupByClause();
    }
    const having = this.acceptKeyword('HAVING') ? this.expression() : undefined;
    const qualify = this.acceptKeyword('QUALIFY') ? this.expression() : undefined;
    return {
      kind: 'select',
      distinct,
      items,
      from,
      where,
      ...grouping,
      having,
      qualify,
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
    const refusedJoin = refusedJoinKind(token, this.peek(1));
    if (refusedJoin) throw new SqlError(SqlErrorCodes.unsupported, refusedJoin, this.text, token);
    if (token.kind === 'quoted' || (token.kind === 'ident' && !this.isReserved(token)))
      return this.next().text;
    return undefined;
  }

  private fromClause(): FromItem {
    let left = this.fromPrimary();
    for (;;) {
      const token = this.peek();
      let type: JoinType | undefined;
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
      } else if (this.acceptKeyword('RIGHT') || this.acceptKeyword('FULL')) {
        this.acceptKeyword('OUTER');
        this.expectKeyword('JOIN', `Expected JOIN after ${token.upper}`);
        type = token.upper === 'RIGHT' ? 'right' : 'full';
      } else if (this.acceptKeyword('JOIN')) type = 'inner';
      else if (token.kind === 'ident' && token.upper === 'NATURAL')
        throw new SqlError(
          SqlErrorCodes.unsupported,
          'NATURAL JOIN is not supported (items have no fixed columns to match); write JOIN ... ON a.column = b.column',
          this.text,
          token,
        );
      if (!type) return left;
      const right = this.fromPrimary();
      let on: Expr | undefined;
      if (type !== 'cross') {
        if (this.peekKeyword('USING'))
          throw new SqlError(
            SqlErrorCodes.unsupported,
            'JOIN ... USING (column) is not supported; write ON a.column = b.column',
            this.text,
            this.peek(),
          );
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
      if (this.peekQuery() || this.peekOp('(')) {
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
    const orderBy: OrderItem[] = this.acceptKeyword('ORDER') ? this.orderItems() : [];
    let limit: Expr | undefined;
    let offset: Expr | undefined;
    if (this.acceptKeyword('LIMIT')) limit = this.expression();
    if (this.acceptKeyword('OFFSET')) offset = this.expression();
    return { orderBy, limit, offset };
  }
}

export type { CastType, PathPart };
