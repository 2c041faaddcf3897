import type { Expr, FrameBound, WindowSpec } from '../parser/ast';
import type { SourceSpan } from '../parser/sql-error';
import { SqlError, SqlErrorCodes } from '../parser/sql-error';
import type { BExpr, FrameEdge, SortKey, WindowCall } from './bound';
import type { ExprContext } from './bind-expr';

/** Window functions by name: how many arguments each takes. Aggregates also run over windows. */
const WINDOW_FUNCTIONS: Record<string, { min: number; max: number }> = {
  ROW_NUMBER: { min: 0, max: 0 },
  RANK: { min: 0, max: 0 },
  DENSE_RANK: { min: 0, max: 0 },
  PERCENT_RANK: { min: 0, max: 0 },
  CUME_DIST: { min: 0, max: 0 },
  NTILE: { min: 1, max: 1 },
  LAG: { min: 1, max: 3 },
  LEAD: { min: 1, max: 3 },
  FIRST_VALUE: { min: 1, max: 1 },
  LAST_VALUE: { min: 1, max: 1 },
  NTH_VALUE: { min: 2, max: 2 },
  COUNT: { min: 1, max: 1 },
  SUM: { min: 1, max: 1 },
  AVG: { min: 1, max: 1 },
  MIN: { min: 1, max: 1 },
  MAX: { min: 1, max: 1 },
};

/** The window calls of one SELECT, shared by SELECT, QUALIFY and ORDER BY (one evaluation each). */
export class WindowCollector {
  readonly calls: WindowCall[] = [];
  private readonly prints: string[] = [];

  add(call: WindowCall, print: string): number {
    let index = this.prints.indexOf(print);
    if (index < 0) {
      index = this.calls.push(call) - 1;
      this.prints.push(print);
    }
    return index;
  }
}

type Call = Extract<Expr, { kind: 'call' }> & { over: WindowSpec };
type Bind = (e: Expr, ctx: ExprContext) => BExpr;

function unsupported(ctx: ExprContext, message: string, span: SourceSpan): SqlError {
  return new SqlError(SqlErrorCodes.unsupported, message, ctx.scope.text, span);
}

/** A non-negative whole number written in the statement (frame offsets, NTILE buckets, LAG offsets). */
function wholeNumber(e: Expr, ctx: ExprContext, what: string): number {
  if (e.kind === 'literal' && e.value.type === 'number' && /^\d+$/.test(e.value.text))
    return Number(e.value.text);
  throw ctx.scope.error(`${what} must be a whole number written in the statement, like 3`, e.span);
}

function edge(bound: FrameBound, ctx: ExprContext, unit: 'ROWS' | 'RANGE'): FrameEdge {
  if (bound.kind !== 'preceding' && bound.kind !== 'following') return { kind: bound.kind };
  if (unit === 'RANGE')
    throw unsupported(
      ctx,
      'RANGE with an offset (RANGE n PRECEDING) is not supported; use ROWS BETWEEN n PRECEDING AND ..., or RANGE with UNBOUNDED and CURRENT ROW',
      bound.offset.span,
    );
  return { kind: bound.kind, offset: wholeNumber(bound.offset, ctx, 'A frame offset') };
}

const ORDER: Record<FrameEdge['kind'], number> = {
  unboundedPreceding: 0,
  preceding: 1,
  currentRow: 2,
  following: 3,
  unboundedFollowing: 4,
};

function frameOf(spec: WindowSpec, ctx: ExprContext): WindowCall['frame'] {
  const f = spec.frame;
  // SQL's default: with ORDER BY, from the partition's start to the current row and its peers;
  // without, the whole partition.
  if (!f)
    return spec.orderBy.length > 0
      ? { unit: 'RANGE', start: { kind: 'unboundedPreceding' }, end: { kind: 'currentRow' } }
      : { unit: 'ROWS', start: { kind: 'unboundedPreceding' }, end: { kind: 'unboundedFollowing' } };
  const start = edge(f.start, ctx, f.unit);
  const end = edge(f.end, ctx, f.unit);
  if (
    start.kind === 'unboundedFollowing' ||
    end.kind === 'unboundedPreceding' ||
    ORDER[start.kind] > ORDER[end.kind]
  )
    throw ctx.scope.error(
      'This frame ends before it starts; write BETWEEN <start> AND <end>, start first',
      f.span,
    );
  return { unit: f.unit, start, end };
}

/** Binds `f(...) OVER (...)`; its arguments and keys are bound like the SELECT list around it. */
export function bindWindowCall(e: Call, ctx: ExprContext, bind: Bind): BExpr {
  const text = ctx.scope.text.slice(e.span.start, e.span.end);
  if (!ctx.windows)
    throw ctx.scope.error(
      `${e.name}() OVER (...) cannot be used in ${ctx.clause}; filter on a window function with QUALIFY, or in an outer query`,
      e.span,
    );
  const arity = WINDOW_FUNCTIONS[e.name];
  if (!arity)
    throw unsupported(
      ctx,
      `${e.name}() OVER is not supported; window functions are ${Object.keys(WINDOW_FUNCTIONS).join(', ')}`,
      e.span,
    );
  if (e.distinct)
    throw unsupported(
      ctx,
      `${e.name}(DISTINCT ...) OVER is not supported; compute it in a subquery grouped by the partition and join that`,
      e.span,
    );
  if (e.star && e.name !== 'COUNT') throw ctx.scope.error('Only COUNT accepts *', e.span);
  const count = e.star ? 1 : e.args.length;
  if (count < arity.min || count > arity.max) {
    const expected = arity.min === arity.max ? `${arity.min}` : `${arity.min} to ${arity.max}`;
    throw ctx.scope.error(
      `${e.name}() takes ${expected} argument${arity.max === 1 ? '' : 's'}, not ${count}`,
      e.span,
    );
  }
  const spec = e.over;
  const inner: ExprContext = {
    scope: ctx.scope,
    bindSubquery: ctx.bindSubquery,
    grouping: ctx.grouping,
    aliases: ctx.aliases,
    clause: `${e.name}() OVER`,
    windows: undefined,
    probing: ctx.probing,
  };
  const args = e.args.map((arg, i): BExpr => {
    const isCount =
      (e.name === 'NTILE' && i === 0) ||
      ((e.name === 'LAG' || e.name === 'LEAD' || e.name === 'NTH_VALUE') && i === 1);
    if (isCount) {
      const n = wholeNumber(arg, ctx, `The ${i === 0 ? 'first' : 'second'} argument of ${e.name}()`);
      if (n === 0 && e.name !== 'LAG' && e.name !== 'LEAD')
        throw ctx.scope.error(`${e.name}() needs a number above 0`, arg.span);
      return { kind: 'lit', value: n };
    }
    return bind(arg, inner);
  });
  const partitionBy = spec.partitionBy.map((p) => bind(p, inner));
  const orderBy: SortKey[] = spec.orderBy.map((o) => ({
    expr: bind(o.expr, inner),
    descending: o.descending,
    nullsFirst: o.nullsFirst ?? !o.descending,
  }));
  const call: WindowCall = { name: e.name, args, partitionBy, orderBy, frame: frameOf(spec, ctx), text };
  return { kind: 'win', index: ctx.windows.add(call, text.replace(/\s+/g, ' ')) };
}
