import type { Expr, FromItem, Query, Select, Statement } from '../parser/ast';
import { type SourceSpan, SqlError, SqlErrorCodes } from '../parser/sql-error';
import { bindExpr, containsAggregate, type ExprContext, Grouping } from './bind-expr';
import type {
  BExpr,
  Binding,
  BindingSource,
  BoundQuery,
  BoundSelect,
  JoinTree,
  Output,
  SortKey,
} from './bound';
import { fingerprint } from './fingerprint';
import { bindingsOf, conjuncts, propagateEqualities } from './conjuncts';
import { viewConditionExprs } from './view-conditions';
import { type OuterLink, outputNames, Scope } from './scope';

export interface BindEnv {
  text: string;
  /** A base table or entity view by name; throws SqlError when there is none. */
  resolveTable(name: string, schema: string | undefined, span: SourceSpan): BindingSource;
}

/** Statement → bound query tree (names resolved, aggregates found, conditions sorted by binding). */
export function bindStatement(statement: Statement, env: BindEnv): BoundQuery {
  return bindQuery(statement.query, env, undefined);
}

function bindQuery(query: Query, env: BindEnv, parent: OuterLink | undefined): BoundQuery {
  if (query.kind === 'select') return bindSelect(query, env, parent);
  const left = bindQuery(query.left, env, parent);
  const right = bindQuery(query.right, env, parent);
  const names = outputNames(left);
  const rightNames = outputNames(right);
  if (names && rightNames && names.length !== rightNames.length) {
    throw new SqlError(
      SqlErrorCodes.semantic,
      `Both sides of UNION must select the same number of columns (${names.length} and ${rightNames.length})`,
      env.text,
      query.span,
    );
  }
  const orderBy = query.orderBy.map((item) => {
    const output = outputPosition(item.expr, names, env.text);
    return { output, descending: item.descending, nullsFirst: item.nullsFirst ?? !item.descending };
  });
  return {
    kind: 'union',
    all: query.all,
    left,
    right,
    orderBy,
    limit: constant(query.limit, env.text, 'LIMIT'),
    offset: constant(query.offset, env.text, 'OFFSET'),
  };
}

function outputPosition(expr: Expr, names: string[] | undefined, text: string): number {
  if (expr.kind === 'literal' && expr.value.type === 'number' && /^\d+$/.test(expr.value.text))
    return Number(expr.value.text) - 1;
  if (expr.kind === 'ref' && expr.parts.length === 1 && expr.parts[0]!.kind === 'name' && names) {
    const index = names.indexOf(expr.parts[0]!.name);
    if (index >= 0) return index;
  }
  throw new SqlError(
    SqlErrorCodes.semantic,
    'ORDER BY after UNION must name an output column or give its position (ORDER BY 2)',
    text,
    expr.span,
  );
}

function constant(expr: Expr | undefined, text: string, clause: string): number | undefined {
  if (!expr) return undefined;
  if (expr.kind === 'literal' && expr.value.type === 'number' && /^\d+$/.test(expr.value.text))
    return Number(expr.value.text);
  throw new SqlError(SqlErrorCodes.semantic, `${clause} takes a whole number`, text, expr.span);
}

function bindFrom(
  item: FromItem,
  env: BindEnv,
  parent: OuterLink | undefined,
  bindings: Binding[],
  nullable: boolean,
  joins: { tree: JoinTree; on?: Expr }[],
): JoinTree {
  if (item.kind === 'join') {
    const left = bindFrom(item.left, env, parent, bindings, nullable, joins);
    const right = bindFrom(item.right, env, parent, bindings, nullable || item.type === 'left', joins);
    const tree: JoinTree = { kind: 'join', type: item.type, left, right, on: [] };
    joins.push({ tree, on: item.on });
    return tree;
  }
  const alias = item.kind === 'table' ? (item.alias ?? item.name) : item.alias;
  if (bindings.some((b) => b.alias === alias)) {
    throw new SqlError(
      SqlErrorCodes.semantic,
      `"${alias}" appears twice in FROM; give each use its own alias (FROM t a JOIN t b ON ...)`,
      env.text,
      item.span,
    );
  }
  const source: BindingSource =
    item.kind === 'table'
      ? env.resolveTable(item.name, item.schema, item.span)
      : { kind: 'derived', query: bindQuery(item.query, env, parent) };
  const binding: Binding = {
    id: bindings.length,
    alias,
    source,
    attributes: new Set(),
    local: [],
    after: [],
    nullable,
    span: item.span,
  };
  bindings.push(binding);
  if (source.kind === 'base' && source.view) binding.local.push(...viewConditionExprs(binding, source.view));
  return { kind: 'binding', id: binding.id };
}

function idsIn(tree: JoinTree): Set<number> {
  if (tree.kind === 'binding') return new Set([tree.id]);
  return new Set([...idsIn(tree.left), ...idsIn(tree.right)]);
}

function outputName(
  item: Extract<Select['items'][number], { kind: 'expr' }>,
  text: string,
  scope: Scope,
): string {
  if (item.alias) return item.alias;
  const e = item.expr;
  if (e.kind === 'ref') {
    const [first, second] = e.parts;
    // Drop a leading alias ("u.name" → "name") but keep paths ("address.city").
    const start =
      first?.kind === 'name' && second?.kind === 'name' && scope.findAlias(first.name)
        ? second.span.start
        : e.span.start;
    return text.slice(start, e.span.end).replace(/"/g, '');
  }
  return text.slice(e.span.start, e.span.end).replace(/\s+/g, ' ');
}

function bindSelect(select: Select, env: BindEnv, parent: OuterLink | undefined): BoundSelect {
  const bindings: Binding[] = [];
  const joins: { tree: JoinTree; on?: Expr }[] = [];
  const from = select.from ? bindFrom(select.from, env, parent, bindings, false, joins) : undefined;
  const scope = new Scope(bindings, env.text, parent);
  const bindSubquery = (query: Query, outer: OuterLink): BoundQuery => bindQuery(query, env, outer);
  const ctx = (clause: string, extra: Partial<ExprContext> = {}): ExprContext => ({
    scope,
    bindSubquery,
    clause,
    ...extra,
  });

  for (const join of joins) {
    if (!join.on || join.tree.kind !== 'join') continue;
    const right = idsIn(join.tree.right);
    for (const part of conjuncts(bindExpr(join.on, ctx('ON')))) {
      const used = bindingsOf(part);
      const only = used.size === 1 ? bindings[[...used][0]!]! : undefined;
      const movable =
        only &&
        (join.tree.type === 'inner' ? !only.nullable : right.has(only.id) && !hasNestedLeft(join.tree.right));
      if (only && movable) only.local.push(part);
      else join.tree.on.push(part);
    }
  }
  const where: BExpr[] = [];
  if (select.where) {
    for (const part of conjuncts(bindExpr(select.where, ctx('WHERE')))) {
      const used = bindingsOf(part);
      const only = used.size === 1 ? bindings[[...used][0]!]! : undefined;
      if (only && !only.nullable) only.local.push(part);
      else {
        if (only) only.after.push(part);
        where.push(part);
      }
    }
  }
  if (from) propagateEqualities(from, bindings);

  const grouped =
    select.groupBy.length > 0 ||
    select.items.some((i) => i.kind === 'expr' && containsAggregate(i.expr)) ||
    select.having !== undefined;
  const outputs: Output[] = [];
  const aliases = new Map<string, BExpr>();
  let grouping: Grouping | undefined;
  if (grouped) {
    const keys = select.groupBy.map((e) => {
      const source = groupSource(e, select, env.text);
      const bound = bindExpr(source, ctx('GROUP BY'));
      return { print: fingerprint(bound), expr: bound };
    });
    grouping = new Grouping(keys);
  }
  for (const item of select.items) {
    if (item.kind === 'star') {
      if (grouping)
        throw new SqlError(
          SqlErrorCodes.semantic,
          'SELECT * cannot be combined with GROUP BY or aggregates; list the columns',
          env.text,
          item.span,
        );
      const targets = item.qualifier === undefined ? bindings : [scope.findAlias(item.qualifier)];
      if (targets.some((b) => b === undefined))
        throw new SqlError(
          SqlErrorCodes.semantic,
          `There is no table called "${item.qualifier}" in FROM`,
          env.text,
          item.span,
        );
      if (targets.length === 0)
        throw new SqlError(SqlErrorCodes.semantic, 'SELECT * needs a table in FROM', env.text, item.span);
      for (const b of targets) b!.attributes = 'ALL';
      outputs.push({ kind: 'star', bindings: targets.map((b) => b!.id) });
      continue;
    }
    const expr = bindExpr(item.expr, ctx('SELECT', { grouping }));
    const name = outputName(item, env.text, scope);
    outputs.push({ kind: 'expr', name, expr });
    if (!aliases.has(name)) aliases.set(name, expr);
  }
  const having = select.having ? bindExpr(select.having, ctx('HAVING', { grouping, aliases })) : undefined;
  const orderBy: SortKey[] = select.orderBy.map((item) => {
    const e = item.expr;
    let expr: BExpr;
    if (e.kind === 'literal' && e.value.type === 'number' && /^\d+$/.test(e.value.text)) {
      const output = outputs[Number(e.value.text) - 1];
      if (output?.kind !== 'expr')
        throw new SqlError(
          SqlErrorCodes.semantic,
          `ORDER BY ${e.value.text} does not name a listed column`,
          env.text,
          e.span,
        );
      expr = output.expr;
    } else expr = bindExpr(e, ctx('ORDER BY', { grouping, aliases }));
    return { expr, descending: item.descending, nullsFirst: item.nullsFirst ?? !item.descending };
  });
  return {
    kind: 'select',
    bindings,
    from,
    where,
    aggregate: grouping ? { keys: grouping.keys.map((k) => k.expr), calls: grouping.calls } : undefined,
    having,
    outputs,
    orderBy,
    distinct: select.distinct,
    limit: constant(select.limit, env.text, 'LIMIT'),
    offset: constant(select.offset, env.text, 'OFFSET'),
  };
}

function hasNestedLeft(tree: JoinTree): boolean {
  return (
    tree.kind === 'join' && (tree.type === 'left' || hasNestedLeft(tree.left) || hasNestedLeft(tree.right))
  );
}

/** GROUP BY 2 and GROUP BY alias mean the listed column's expression. */
function groupSource(e: Expr, select: Select, text: string): Expr {
  if (e.kind === 'literal' && e.value.type === 'number' && /^\d+$/.test(e.value.text)) {
    const item = select.items[Number(e.value.text) - 1];
    if (item?.kind !== 'expr')
      throw new SqlError(
        SqlErrorCodes.semantic,
        `GROUP BY ${e.value.text} does not name a listed column`,
        text,
        e.span,
      );
    return item.expr;
  }
  if (e.kind === 'ref' && e.parts.length === 1 && e.parts[0]!.kind === 'name') {
    const name = e.parts[0]!.name;
    const item = select.items.find((i) => i.kind === 'expr' && i.alias === name);
    if (item?.kind === 'expr') {
      if (containsAggregate(item.expr))
        throw new SqlError(
          SqlErrorCodes.semantic,
          `"${name}" is an aggregate and cannot be grouped by`,
          text,
          e.span,
        );
      return item.expr;
    }
  }
  return e;
}
