import type { SourceSpan } from './sql-error';

/** One step of an attribute path: a (possibly quoted) name or a list index. */
export type PathPart =
  | { kind: 'name'; name: string; quoted: boolean; span: SourceSpan }
  | { kind: 'index'; index: number; span: SourceSpan };

export type Literal =
  | { type: 'number'; text: string }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'null' };

export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '||' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'AND' | 'OR';

export type Expr = { span: SourceSpan } & (
  | { kind: 'literal'; value: Literal }
  /** `a`, `t.a`, `a.b[0].c`, `"a.b"`: resolved against tables and aliases by the binder. */
  | { kind: 'ref'; parts: PathPart[] }
  | { kind: 'unary'; op: '-' | '+' | 'NOT'; operand: Expr }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'isNull'; operand: Expr; negated: boolean }
  /** DynamoDB's own test: the item has no such attribute (NULL is a value, so it is not missing). */
  | { kind: 'isMissing'; operand: Expr; negated: boolean }
  | { kind: 'between'; operand: Expr; low: Expr; high: Expr; negated: boolean }
  | { kind: 'inList'; operand: Expr; items: Expr[]; negated: boolean }
  | { kind: 'inQuery'; operand: Expr; query: Query; negated: boolean }
  | { kind: 'like'; operand: Expr; pattern: Expr; escape?: Expr; negated: boolean; caseInsensitive: boolean }
  | { kind: 'exists'; query: Query; negated: boolean }
  | { kind: 'subquery'; query: Query }
  | { kind: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; otherwise?: Expr }
  | { kind: 'cast'; operand: Expr; type: CastType }
  | { kind: 'call'; name: string; args: Expr[]; distinct: boolean; star: boolean; over?: WindowSpec }
  /** GROUPING(a, b): which of the listed GROUP BY keys a ROLLUP/CUBE row has rolled up. */
  | { kind: 'grouping'; args: Expr[] }
);

export type FrameBound =
  | { kind: 'unboundedPreceding' | 'currentRow' | 'unboundedFollowing' }
  | { kind: 'preceding' | 'following'; offset: Expr };

/** `OVER (PARTITION BY ... ORDER BY ... ROWS|RANGE BETWEEN ... AND ...)`. */
export interface WindowSpec {
  partitionBy: Expr[];
  orderBy: OrderItem[];
  frame?: { unit: 'ROWS' | 'RANGE'; start: FrameBound; end: FrameBound; span: SourceSpan };
  span: SourceSpan;
}

export type CastType = 'NUMBER' | 'INTEGER' | 'STRING' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP';

export type SelectItem =
  | { kind: 'star'; qualifier?: string; span: SourceSpan }
  | { kind: 'expr'; expr: Expr; alias?: string; span: SourceSpan };

export type FromItem =
  | { kind: 'table'; name: string; schema?: string; alias?: string; span: SourceSpan }
  | { kind: 'subquery'; query: Query; alias: string; span: SourceSpan }
  | {
      kind: 'join';
      type: JoinType;
      left: FromItem;
      right: FromItem;
      on?: Expr;
      span: SourceSpan;
    };

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'cross';

export interface OrderItem {
  expr: Expr;
  descending: boolean;
  /** Default: NULLs first ascending, last descending (NULL is the smallest value). */
  nullsFirst?: boolean;
}

/** `WITH name [(columns)] AS (query)`: visible to the queries after it and to the body. */
export interface CommonTable {
  name: string;
  columns?: string[];
  query: Query;
  span: SourceSpan;
}

export interface Tail {
  orderBy: OrderItem[];
  limit?: Expr;
  offset?: Expr;
  /** The WITH list in front of this query, if any. */
  ctes?: CommonTable[];
}

export interface Select extends Tail {
  kind: 'select';
  distinct: boolean;
  items: SelectItem[];
  from?: FromItem;
  where?: Expr;
  groupBy: Expr[];
  /**
   * ROLLUP / CUBE / GROUPING SETS, expanded: each set lists positions in `groupBy`. Absent for a
   * plain GROUP BY (one set of every key).
   */
  groupingSets?: number[][];
  having?: Expr;
  qualify?: Expr;
  span: SourceSpan;
}

export type SetOperator = 'UNION' | 'INTERSECT' | 'EXCEPT';

export interface SetOperation extends Tail {
  kind: 'setop';
  op: SetOperator;
  all: boolean;
  left: Query;
  right: Query;
  span: SourceSpan;
}

export type Query = Select | SetOperation;

export interface Statement {
  query: Query;
  text: string;
}
