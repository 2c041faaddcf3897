import type { BinaryOp, CastType, SetOperator } from '../parser/ast';
import type { SourceSpan } from '../parser/sql-error';
import type { Value } from '../values/value';
import type { EntityView, TableInfo } from '../../../shared/sql/catalog';

/** A step of a path below a top-level attribute: a map key or a list index. */
export type PathStep = string | number;

/** Expressions after name resolution: every column names its binding, every call its function. */
export type BExpr =
  | { kind: 'lit'; value: Value }
  | { kind: 'col'; binding: number; attr: string; path: PathStep[] }
  /** A column of the aggregated row (group keys first, then aggregates). */
  | { kind: 'slot'; index: number }
  /** A value of the enclosing query's current row (correlated subquery): its subquery's params[index]. */
  | { kind: 'param'; index: number }
  | { kind: 'unary'; op: '-' | '+' | 'NOT'; operand: BExpr }
  | { kind: 'binary'; op: BinaryOp; left: BExpr; right: BExpr }
  | { kind: 'isNull'; operand: BExpr; negated: boolean }
  | { kind: 'isMissing'; operand: BExpr; negated: boolean }
  /** The value of window function `index` of the SELECT for this row. */
  | { kind: 'win'; index: number }
  /** GROUPING(...): a bit per listed GROUP BY key (by position), 1 where the row rolled it up. */
  | { kind: 'grouping'; keys: number[] }
  | { kind: 'between'; operand: BExpr; low: BExpr; high: BExpr; negated: boolean }
  | { kind: 'inList'; operand: BExpr; items: BExpr[]; negated: boolean }
  | {
      kind: 'inQuery';
      operand: BExpr;
      query: BoundQuery;
      params: BExpr[];
      negated: boolean;
      span: SourceSpan;
    }
  | {
      kind: 'like';
      operand: BExpr;
      pattern: BExpr;
      escape?: BExpr;
      negated: boolean;
      caseInsensitive: boolean;
    }
  /**
   * `params` (on every subquery): the enclosing query's values the subquery reads, in the
   * enclosing query's terms; empty when it is uncorrelated (then it runs once per statement).
   */
  | { kind: 'exists'; query: BoundQuery; params: BExpr[]; negated: boolean }
  | { kind: 'scalar'; query: BoundQuery; params: BExpr[]; span: SourceSpan }
  | { kind: 'case'; operand?: BExpr; whens: { when: BExpr; then: BExpr }[]; otherwise?: BExpr }
  | { kind: 'cast'; operand: BExpr; type: CastType }
  | { kind: 'call'; name: string; args: BExpr[]; span: SourceSpan };

export type AggregateName = 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

export interface AggregateCall {
  name: AggregateName;
  /** Absent for COUNT(*). */
  arg?: BExpr;
  distinct: boolean;
  /** The text as written, for warnings ("SUM(o.amount) skipped 3 strings"). */
  text: string;
}

export type FrameEdge =
  | { kind: 'unboundedPreceding' | 'currentRow' | 'unboundedFollowing' }
  | { kind: 'preceding' | 'following'; offset: number };

/** A window function call: evaluated over the rows after WHERE, GROUP BY and HAVING. */
export interface WindowCall {
  name: string;
  args: BExpr[];
  partitionBy: BExpr[];
  orderBy: SortKey[];
  /** The frame; when the query gives none, the SQL standard's default (see window.ts). */
  frame: { unit: 'ROWS' | 'RANGE'; start: FrameEdge; end: FrameEdge };
  text: string;
}

export type BindingSource =
  { kind: 'base'; table: TableInfo; view?: EntityView } | { kind: 'derived'; query: BoundQuery };

export interface Binding {
  id: number;
  alias: string;
  source: BindingSource;
  /** Top-level attributes the statement reads from this binding; 'ALL' for `*`. */
  attributes: Set<string> | 'ALL';
  /** Conditions on this binding alone, applied before joins (view condition included). */
  local: BExpr[];
  /** WHERE conditions on this binding alone that run after the join (it is on a LEFT JOIN's optional side). */
  after: BExpr[];
  /** On the optional side of a LEFT JOIN. */
  nullable: boolean;
  span: SourceSpan;
  /**
   * Set on a copy the executor makes when it rewrites a correlated subquery (decorrelate.ts):
   * the binding it was copied from, whose fetched table the copy reads.
   */
  original?: Binding;
}

export type JoinTree =
  | { kind: 'binding'; id: number }
  /** RIGHT JOIN is bound as a LEFT JOIN with its sides swapped. */
  | { kind: 'join'; type: 'inner' | 'left' | 'full' | 'cross'; left: JoinTree; right: JoinTree; on: BExpr[] };

export type Output =
  | { kind: 'expr'; name: string; expr: BExpr }
  /** `*` or `t.*`: expanded when the data is there, because items have no fixed schema. */
  | { kind: 'star'; bindings: number[] };

export interface SortKey {
  expr: BExpr;
  descending: boolean;
  nullsFirst: boolean;
}

export interface BoundSelect {
  kind: 'select';
  bindings: Binding[];
  from?: JoinTree;
  /** WHERE conjuncts that involve several bindings (or none), applied after the joins. */
  where: BExpr[];
  /** `sets`: ROLLUP / CUBE / GROUPING SETS as positions in `keys`; absent for one set of all keys. */
  aggregate?: { keys: BExpr[]; calls: AggregateCall[]; sets?: number[][] };
  having?: BExpr;
  windows: WindowCall[];
  qualify?: BExpr;
  outputs: Output[];
  orderBy: SortKey[];
  distinct: boolean;
  limit?: number;
  offset?: number;
}

export interface BoundSetOperation {
  kind: 'setop';
  op: SetOperator;
  all: boolean;
  left: BoundQuery;
  right: BoundQuery;
  /** Sort keys refer to output columns by position. */
  orderBy: { output: number; descending: boolean; nullsFirst: boolean }[];
  limit?: number;
  offset?: number;
}

export type BoundQuery = BoundSelect | BoundSetOperation;
