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
  | { kind: 'between'; operand: Expr; low: Expr; high: Expr; negated: boolean }
  | { kind: 'inList'; operand: Expr; items: Expr[]; negated: boolean }
  | { kind: 'inQuery'; operand: Expr; query: Query; negated: boolean }
  | { kind: 'like'; operand: Expr; pattern: Expr; escape?: Expr; negated: boolean; caseInsensitive: boolean }
  | { kind: 'exists'; query: Query; negated: boolean }
  | { kind: 'subquery'; query: Query }
  | { kind: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; otherwise?: Expr }
  | { kind: 'cast'; operand: Expr; type: CastType }
  | { kind: 'call'; name: string; args: Expr[]; distinct: boolean; star: boolean }
);

export type CastType = 'NUMBER' | 'INTEGER' | 'STRING' | 'BOOLEAN';

export type SelectItem =
  | { kind: 'star'; qualifier?: string; span: SourceSpan }
  | { kind: 'expr'; expr: Expr; alias?: string; span: SourceSpan };

export type FromItem =
  | { kind: 'table'; name: string; schema?: string; alias?: string; span: SourceSpan }
  | { kind: 'subquery'; query: Query; alias: string; span: SourceSpan }
  | {
      kind: 'join';
      type: 'inner' | 'left' | 'cross';
      left: FromItem;
      right: FromItem;
      on?: Expr;
      span: SourceSpan;
    };

export interface OrderItem {
  expr: Expr;
  descending: boolean;
  /** Default: NULLs first ascending, last descending (NULL is the smallest value). */
  nullsFirst?: boolean;
}

export interface Tail {
  orderBy: OrderItem[];
  limit?: Expr;
  offset?: Expr;
}

export interface Select extends Tail {
  kind: 'select';
  distinct: boolean;
  items: SelectItem[];
  from?: FromItem;
  where?: Expr;
  groupBy: Expr[];
  having?: Expr;
  span: SourceSpan;
}

export interface Union extends Tail {
  kind: 'union';
  all: boolean;
  left: Query;
  right: Query;
  span: SourceSpan;
}

export type Query = Select | Union;

export interface Statement {
  query: Query;
  text: string;
}
