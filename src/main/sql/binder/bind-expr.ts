import type { Expr, Query } from '../parser/ast';
import type { Value } from '../values/value';
import { parseNum } from '../values/decimal';
import type { AggregateCall, AggregateName, BExpr, BoundQuery } from './bound';
import { childExprs } from './conjuncts';
import { sharedChildren } from './expr-children';
import { fingerprint } from './fingerprint';
import { functionArity } from '../executor/functions';
import { SqlError, SqlErrorCodes } from '../parser/sql-error';
import { refusedFunction } from '../parser/unsupported';
import { bindWindowCall, type WindowCollector } from './bind-window';
import type { OuterLink, Scope } from './scope';
import { outputNames } from './scope';

export const AGGREGATES = new Set<string>(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);

/** GROUP BY keys and the aggregates found so far, while binding the clauses after grouping. */
export class Grouping {
  readonly calls: AggregateCall[] = [];
  private readonly callPrints: string[] = [];
  constructor(readonly keys: { print: string; expr: BExpr }[]) {}

  slotOfKey(print: string): number {
    return this.keys.findIndex((key) => key.print === print);
  }

  slotOfCall(call: AggregateCall): number {
    const print = `${call.name}|${call.distinct}|${call.arg ? fingerprint(call.arg) : '*'}`;
    let index = this.callPrints.indexOf(print);
    if (index < 0) {
      index = this.calls.length;
      this.calls.push(call);
      this.callPrints.push(print);
    }
    return this.keys.length + index;
  }
}

export interface ExprContext {
  scope: Scope;
  bindSubquery: (query: Query, outer: OuterLink) => BoundQuery;
  /** Set for HAVING / SELECT / ORDER BY of a grouped query. */
  grouping?: Grouping;
  /** Output aliases usable by name (ORDER BY, HAVING, GROUP BY). */
  aliases?: Map<string, BExpr>;
  /** Clause name for messages ("WHERE", "ON", ...). */
  clause: string;
  /** Set where window functions may appear (SELECT, QUALIFY, ORDER BY). */
  windows?: WindowCollector;
  /** Binding only to learn whether an expression is a group key (see groupKeyProbe). */
  probing?: boolean;
}

/**
 * The context without grouping or output aliases, in the one shape every context has (fields in
 * the interface's order; a spread would make others).
 */
function ungrouped(
  ctx: ExprContext,
  clause: string,
  probing: boolean | undefined,
  windows: WindowCollector | undefined,
): ExprContext {
  const { scope, bindSubquery } = ctx;
  return { scope, bindSubquery, grouping: undefined, aliases: undefined, clause, windows, probing };
}

/** A probed expression holds an enclosing query's aggregate, so it is no group key. */
class NotAGroupKey extends Error {}

type WindowExpr = Extract<Expr, { kind: 'call' }> & {
  over: NonNullable<Extract<Expr, { kind: 'call' }>['over']>;
};

function isWindow(e: Expr): e is WindowExpr {
  return e.kind === 'call' && e.over !== undefined;
}

/** The expressions directly inside one node (subqueries excluded: they bind on their own); the bound tree's counterpart is childExprs. */
function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'literal':
    case 'ref':
    case 'exists':
    case 'subquery':
      return [];
    case 'inQuery':
      return [e.operand];
    case 'unary':
    case 'isNull':
    case 'isMissing':
    case 'cast':
    case 'binary':
    case 'between':
    case 'inList':
    case 'like':
    case 'case':
      return sharedChildren<Expr>(e);
    case 'call':
      return [...e.args, ...(e.over ? [...e.over.partitionBy, ...e.over.orderBy.map((o) => o.expr)] : [])];
    case 'grouping':
      return e.args;
  }
}

export function containsWindow(e: Expr): boolean {
  return isWindow(e) || children(e).some(containsWindow);
}

/**
 * True when the expression makes its SELECT a grouped one (an aggregate outside any OVER). With
 * the query's scope, an aggregate of an enclosing query's columns does not count: it is that
 * query's (see outerAggregate).
 */
export function containsAggregate(e: Expr, scope?: Scope): boolean {
  if (e.kind === 'grouping') return true;
  if (e.kind === 'call' && !e.over && AGGREGATES.has(e.name) && !(scope && readsOnlyOuter(e, scope)))
    return true;
  return children(e).some((child) => containsAggregate(child, scope));
}

function literal(e: Extract<Expr, { kind: 'literal' }>, ctx: ExprContext): Value {
  switch (e.value.type) {
    case 'number': {
      const n = parseNum(e.value.text);
      if (n === undefined) throw ctx.scope.error(`"${e.value.text}" is not a number`, e.span);
      return n;
    }
    case 'string':
      return e.value.value;
    case 'boolean':
      return e.value.value;
    case 'null':
      return null;
  }
}

/**
 * Binds a subquery whose outer names are bound in this clause (`ctx`): in a grouped HAVING or
 * SELECT an outer column must be a group key, as anywhere else there.
 */
function correlated(query: Query, ctx: ExprContext): { query: BoundQuery; params: BExpr[] } {
  const bind = (e: Parameters<OuterLink['bind']>[0]): BExpr => {
    if (e.kind === 'call' && ctx.probing) throw new NotAGroupKey();
    // An aggregate of a query further out passes through this one, which need not aggregate.
    if (e.kind === 'call' && !ctx.grouping && !readsOnlyOuter(e, ctx.scope)) {
      const text = ctx.scope.text.slice(e.span.start, e.span.end);
      throw ctx.scope.error(
        `${text} aggregates the enclosing query's rows (it reads only their columns), and that query does not aggregate in its ${ctx.clause}: an aggregate of an enclosing query belongs in its SELECT, HAVING or ORDER BY when it has GROUP BY or aggregates`,
        e.span,
      );
    }
    return bindExpr(e, ctx);
  };
  const outer: OuterLink = { scope: ctx.scope, bind, params: [] };
  return { query: ctx.bindSubquery(query, outer), params: outer.params };
}

function subquery(
  query: Query,
  ctx: ExprContext,
  span: Expr['span'],
  what: string,
): { query: BoundQuery; params: BExpr[] } {
  const bound = correlated(query, ctx);
  const names = outputNames(bound.query);
  if (names && names.length !== 1)
    throw ctx.scope.error(`${what} must select exactly one column (it selects ${names.length})`, span);
  return bound;
}

/** Binds one expression: names → columns, calls → functions, aggregates → slots when grouped. */
export function bindExpr(e: Expr, ctx: ExprContext): BExpr {
  if (ctx.grouping) return bindGrouped(e, ctx, ctx.grouping);
  return bindPlain(e, ctx);
}

function bindPlain(e: Expr, ctx: ExprContext): BExpr {
  if (isWindow(e)) return bindWindowCall(e, ctx, bindExpr);
  if (e.kind === 'grouping') throw ctx.scope.error('GROUPING() needs GROUP BY', e.span);
  if (e.kind === 'ref') {
    const only = e.parts.length === 1 ? e.parts[0] : undefined;
    const alias = only?.kind === 'name' ? ctx.aliases?.get(only.name) : undefined;
    if (alias) return alias;
    return ctx.scope.resolve(e);
  }
  if (e.kind === 'call' && AGGREGATES.has(e.name)) {
    const outer = outerAggregate(e, ctx);
    if (outer) return outer;
    throw ctx.scope.error(
      `${e.name}() cannot be used in ${ctx.clause}; aggregates belong in SELECT, HAVING or ORDER BY`,
      e.span,
    );
  }
  return buildNode(e, ctx, (child) => bindPlain(child, ctx));
}

function bindGrouped(e: Expr, ctx: ExprContext, grouping: Grouping): BExpr {
  if (isWindow(e)) return bindWindowCall(e, ctx, bindExpr);
  if (e.kind === 'grouping') {
    if (grouping.keys.length === 0) throw ctx.scope.error('GROUPING() needs GROUP BY', e.span);
    const keys = e.args.map((arg) => {
      const slot = grouping.slotOfKey(
        fingerprint(bindPlain(arg, ungrouped(ctx, ctx.clause, ctx.probing, ctx.windows))),
      );
      if (slot < 0) throw ctx.scope.error('GROUPING() takes only expressions listed in GROUP BY', arg.span);
      return slot;
    });
    if (keys.length === 0) throw ctx.scope.error('GROUPING() takes one or more GROUP BY expressions', e.span);
    return { kind: 'grouping', keys };
  }
  if (e.kind === 'call' && AGGREGATES.has(e.name)) {
    const outer = outerAggregate(e, ctx);
    if (outer) return outer;
    const plain = ungrouped(ctx, `${e.name}()`, false, undefined);
    if (e.args.length > 1 || (!e.star && e.args.length === 0))
      throw ctx.scope.error(`${e.name} takes one value`, e.span);
    if (e.star && e.name !== 'COUNT') throw ctx.scope.error(`Only COUNT accepts *`, e.span);
    const arg = e.star ? undefined : bindPlain(e.args[0]!, plain);
    const text = ctx.scope.text.slice(e.span.start, e.span.end);
    return {
      kind: 'slot',
      index: grouping.slotOfCall({ name: e.name as AggregateName, arg, distinct: e.distinct, text }),
    };
  }
  if (e.kind === 'ref' && e.parts.length === 1 && e.parts[0]!.kind === 'name') {
    const alias = ctx.aliases?.get(e.parts[0]!.name);
    if (alias) return alias;
  }
  const plain = !containsAggregate(e) && !containsWindow(e) ? groupKeyProbe(e, ctx) : undefined;
  if (plain) {
    const slot = grouping.slotOfKey(fingerprint(plain));
    if (slot >= 0) return { kind: 'slot', index: slot };
    // An enclosing query's value (s.level in a subquery) is one constant for all of this
    // query's rows, as in PostgreSQL and DuckDB: it needs no GROUP BY.
    if (isConstantHere(plain)) return plain;
    if (e.kind === 'ref') {
      const text = ctx.scope.text.slice(e.span.start, e.span.end);
      throw ctx.scope.error(
        `${text} must be in GROUP BY or inside an aggregate such as MIN(${text})`,
        e.span,
      );
    }
  }
  return buildNode(e, ctx, (child) => bindGrouped(child, ctx, grouping));
}

/**
 * The expression bound as if ungrouped, to compare with the GROUP BY keys; undefined when it
 * holds a subquery reading an enclosing query's aggregate, which only binds grouped (and so is
 * no key). Probing instead of skipping subqueries keeps GROUP BY (SELECT …) usable in SELECT.
 */
function groupKeyProbe(e: Expr, ctx: ExprContext): BExpr | undefined {
  try {
    return bindPlain(e, ungrouped(ctx, ctx.clause, true, ctx.windows));
  } catch (error) {
    if (error instanceof NotAGroupKey) return undefined;
    throw error;
  }
}

/** No column of this query's own rows inside: literals and the enclosing query's values. */
function isConstantHere(e: BExpr): boolean {
  if (e.kind === 'col' || e.kind === 'slot' || e.kind === 'win' || e.kind === 'grouping') return false;
  return childExprs(e).every(isConstantHere);
}

/** Every name the expression reads outside its subqueries. */
function refsIn(e: Expr): Extract<Expr, { kind: 'ref' }>[] {
  return e.kind === 'ref' ? [e] : children(e).flatMap(refsIn);
}

/**
 * An aggregate whose argument reads only the enclosing query's columns (MAX(t.cost) in a
 * subquery of a query over t) aggregates the enclosing query's rows, as in PostgreSQL: the
 * enclosing query binds it (a slot of its grouping) and this query sees its value as a
 * constant. Undefined when the aggregate is this query's own.
 */
function outerAggregate(e: Extract<Expr, { kind: 'call' }>, ctx: ExprContext): BExpr | undefined {
  return readsOnlyOuter(e, ctx.scope) ? ctx.scope.outerAggregate(e) : undefined;
}

function readsOnlyOuter(e: Extract<Expr, { kind: 'call' }>, scope: Scope): boolean {
  const refs = e.args.flatMap(refsIn);
  return refs.length > 0 && refs.every((ref) => scope.isOuterName(ref));
}

/** Rebuilds one node with children bound by `child` (plain or grouped). */
function buildNode(e: Expr, ctx: ExprContext, child: (e: Expr) => BExpr): BExpr {
  switch (e.kind) {
    case 'literal':
      return { kind: 'lit', value: literal(e, ctx) };
    case 'ref':
      return child(e);
    case 'unary':
      return { kind: 'unary', op: e.op, operand: child(e.operand) };
    case 'binary':
      return { kind: 'binary', op: e.op, left: child(e.left), right: child(e.right) };
    case 'isNull':
      return { kind: 'isNull', operand: child(e.operand), negated: e.negated };
    case 'isMissing':
      return { kind: 'isMissing', operand: child(e.operand), negated: e.negated };
    case 'grouping':
      return child(e);
    case 'between':
      return {
        kind: 'between',
        operand: child(e.operand),
        low: child(e.low),
        high: child(e.high),
        negated: e.negated,
      };
    case 'inList':
      return { kind: 'inList', operand: child(e.operand), items: e.items.map(child), negated: e.negated };
    case 'inQuery':
      return {
        kind: 'inQuery',
        operand: child(e.operand),
        ...subquery(e.query, ctx, e.span, 'The subquery after IN'),
        negated: e.negated,
        span: e.span,
      };
    case 'like':
      return {
        kind: 'like',
        operand: child(e.operand),
        pattern: child(e.pattern),
        escape: e.escape ? child(e.escape) : undefined,
        negated: e.negated,
        caseInsensitive: e.caseInsensitive,
      };
    case 'exists':
      return { kind: 'exists', ...correlated(e.query, ctx), negated: e.negated };
    case 'subquery':
      return {
        kind: 'scalar',
        ...subquery(e.query, ctx, e.span, 'A subquery used as a value'),
        span: e.span,
      };
    case 'case':
      return {
        kind: 'case',
        operand: e.operand ? child(e.operand) : undefined,
        whens: e.whens.map((w) => ({ when: child(w.when), then: child(w.then) })),
        otherwise: e.otherwise ? child(e.otherwise) : undefined,
      };
    case 'cast':
      return { kind: 'cast', operand: child(e.operand), type: e.type };
    case 'call': {
      const arity = functionArity(e.name);
      if (!arity)
        throw new SqlError(SqlErrorCodes.unsupported, refusedFunction(e.name), ctx.scope.text, e.span);
      if (e.star || e.distinct)
        throw ctx.scope.error(`${e.name}() does not take ${e.star ? '*' : 'DISTINCT'}`, e.span);
      if (e.args.length < arity.min || e.args.length > arity.max) {
        const expected = arity.min === arity.max ? `${arity.min}` : `${arity.min} to ${arity.max}`;
        throw ctx.scope.error(
          `${e.name}() takes ${expected} argument${arity.max === 1 ? '' : 's'}, not ${e.args.length}`,
          e.span,
        );
      }
      return { kind: 'call', name: e.name, args: e.args.map(child), span: e.span };
    }
  }
}
