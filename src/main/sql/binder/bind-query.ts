import type { Expr, FromItem, Query, Select, Statement } from '../parser/ast';
import { type SourceSpan, SqlError, SqlErrorCodes } from '../parser/sql-error';
import { bindExpr, containsAggregate, type ExprContext, Grouping } from './bind-expr';
import { WindowCollector } from './bind-window';
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
import { bindingsOf, childExprs, conjuncts, propagateEqualities } from './conjuncts';
import { viewConditionExprs } from './view-conditions';
import { type OuterLink, outputNames, Scope } from './scope';

export interface BindEnv {
  text: string;
  /** A base table or entity view by name; throws SqlError when there is none. */
  resolveTable(name: string, schema: string | undefined, span: SourceSpan): BindingSource;
  /**
   * WITH queries in scope, by lower-cased name. Every use of one shares its bound query, and
   * the executor runs a bound query once per statement, so a CTE used twice is evaluated once.
   */
  ctes?: ReadonlyMap<string, BoundQuery>;
}

/** Statement → bound query tree (names resolved, aggregates found, conditions sorted by binding). */
export function bindStatement(statement: Statement, env: BindEnv): BoundQuery {
  return bindQuery(statement.query, env, undefined);
}

function bindQuery(query: Query, outerEnv: BindEnv, parent: OuterLink | undefined): BoundQuery {
  const env = bindCtes(query, outerEnv, parent);
  if (query.kind === 'select') return bindSelect(query, env, parent);
  const left = bindQuery(query.left, env, parent);
  const right = bindQuery(query.right, env, parent);
  const names = outputNames(left);
  const rightNames = outputNames(right);
  if (names && rightNames && names.length !== rightNames.length) {
    throw new SqlError(
      SqlErrorCodes.semantic,
      `Both sides of ${query.op} must select the same number of columns (${names.length} and ${rightNames.length})`,
      env.text,
      query.span,
    );
  }
  const orderBy = query.orderBy.map((item) => {
    const output = outputPosition(item.expr, names, env.text, query.op);
    return { output, descending: item.descending, nullsFirst: item.nullsFirst ?? !item.descending };
  });
  return {
    kind: 'setop',
    op: query.op,
    all: query.all,
    left,
    right,
    orderBy,
    limit: constant(query.limit, env.text, 'LIMIT'),
    offset: constant(query.offset, env.text, 'OFFSET'),
  };
}

function bindCtes(query: Query, env: BindEnv, parent: OuterLink | undefined): BindEnv {
  if (!query.ctes) return env;
  const ctes = new Map(env.ctes);
  let inner: BindEnv = env;
  for (const cte of query.ctes) {
    const bound = bindQuery(cte.query, inner, parent);
    if (cte.columns) renameOutputs(bound, cte.columns, cte.name, env.text, cte.span);
    ctes.set(cte.name.toLowerCase(), bound);
    inner = { ...env, ctes: new Map(ctes) };
  }
  return inner;
}

/** `WITH t(a, b) AS (...)`: the listed names replace the query's own column names. */
function renameOutputs(
  query: BoundQuery,
  columns: string[],
  name: string,
  text: string,
  span: SourceSpan,
): void {
  if (query.kind === 'setop') {
    renameOutputs(query.left, columns, name, text, span);
    return;
  }
  const outputs = query.outputs;
  if (outputs.some((o) => o.kind === 'star') || outputs.length !== columns.length)
    throw new SqlError(
      SqlErrorCodes.semantic,
      `WITH ${name}(${columns.join(', ')}) names ${columns.length} columns, but its query ${outputs.some((o) => o.kind === 'star') ? 'selects *; list its columns' : `selects ${outputs.length}`}`,
      text,
      span,
    );
  outputs.forEach((o, i) => {
    if (o.kind === 'expr') o.name = columns[i]!;
  });
}

function outputPosition(expr: Expr, names: string[] | undefined, text: string, op: string): number {
  if (isPosition(expr, text)) return Number(expr.value.text) - 1;
  if (expr.kind === 'ref' && expr.parts.length === 1 && expr.parts[0]!.kind === 'name' && names) {
    const index = names.indexOf(expr.parts[0]!.name);
    if (index >= 0) return index;
  }
  throw new SqlError(
    SqlErrorCodes.semantic,
    `ORDER BY after ${op} must name an output column or give its position (ORDER BY 2)`,
    text,
    expr.span,
  );
}

/**
 * `GROUP BY 2` / `ORDER BY 2`: digits as written. `GROUP BY - (-5)` is an expression (a constant),
 * even though the parser folds it into the literal 5.
 */
function isPosition(
  e: Expr,
  text: string,
): e is Extract<Expr, { kind: 'literal' }> & { value: { type: 'number' } } {
  return (
    e.kind === 'literal' && e.value.type === 'number' && /^\d+$/.test(text.slice(e.span.start, e.span.end))
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
    const leftNullable = nullable || item.type === 'right' || item.type === 'full';
    const rightNullable = nullable || item.type === 'left' || item.type === 'full';
    const left = bindFrom(item.left, env, parent, bindings, leftNullable, joins);
    const right = bindFrom(item.right, env, parent, bindings, rightNullable, joins);
    // The join operator keeps the rows of its left input: a RIGHT JOIN is a LEFT JOIN turned around.
    const tree: JoinTree =
      item.type === 'right'
        ? { kind: 'join', type: 'left', left: right, right: left, on: [] }
        : { kind: 'join', type: item.type, left, right, on: [] };
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
  const cte =
    item.kind === 'table' && item.schema === undefined ? env.ctes?.get(item.name.toLowerCase()) : undefined;
  const source: BindingSource = cte
    ? { kind: 'derived', query: cte }
    : item.kind === 'table'
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

/** The name of a result column; the Athena translation names its columns the same way. */
export function outputName(
  item: Extract<Select['items'][number], { kind: 'expr' }>,
  text: string,
  scope: { findAlias(name: string): unknown },
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
  // Every context of a statement has one shape, its fields in one order: a spread of `extra`
  // made contexts of several shapes (docs/PERFORMANCE.md, session 23, sqlfixed3).
  const ctx = (
    clause: string,
    grouping?: Grouping,
    aliases?: Map<string, BExpr>,
    windows?: WindowCollector,
  ): ExprContext => ({ scope, bindSubquery, grouping, aliases, clause, windows, probing: false });

  for (const join of joins) {
    if (!join.on || join.tree.kind !== 'join') continue;
    const right = idsIn(join.tree.right);
    for (const part of conjuncts(bindExpr(join.on, ctx('ON')))) {
      const used = bindingsOf(part);
      const only = used.size === 1 ? bindings[[...used][0]!]! : undefined;
      // A condition on one side moves into that side's own filter only where it cannot turn a
      // kept row into a missing one: any side of an INNER JOIN, the optional side of a LEFT JOIN,
      // never a FULL JOIN (both sides are kept).
      const movable =
        only &&
        (join.tree.type === 'inner'
          ? !only.nullable
          : join.tree.type === 'left' && right.has(only.id) && !hasNestedLeft(join.tree.right));
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
    select.items.some((i) => i.kind === 'expr' && containsAggregate(i.expr, scope)) ||
    select.having !== undefined ||
    (select.qualify !== undefined && containsAggregate(select.qualify, scope));
  const windows = new WindowCollector();
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
    const expr = bindExpr(item.expr, ctx('SELECT', grouping, undefined, windows));
    const name = outputName(item, env.text, scope);
    outputs.push({ kind: 'expr', name, expr });
    if (!aliases.has(name)) aliases.set(name, expr);
  }
  const having = select.having ? bindExpr(select.having, ctx('HAVING', grouping, aliases)) : undefined;
  if (select.having && having && readsWindow(having))
    throw new SqlError(
      SqlErrorCodes.semantic,
      'HAVING runs before window functions are computed; filter on a window function with QUALIFY',
      env.text,
      select.having.span,
    );
  const qualify = select.qualify
    ? bindExpr(select.qualify, ctx('QUALIFY', grouping, aliases, windows))
    : undefined;
  const orderBy: SortKey[] = select.orderBy.map((item) => {
    const e = item.expr;
    let expr: BExpr;
    if (isPosition(e, env.text)) {
      const output = outputs[Number(e.value.text) - 1];
      if (output?.kind !== 'expr')
        throw new SqlError(
          SqlErrorCodes.semantic,
          `ORDER BY ${e.value.text} does not name a listed column`,
          env.text,
          e.span,
        );
      expr = output.expr;
    } else expr = bindExpr(e, ctx('ORDER BY', grouping, aliases, windows));
    return { expr, descending: item.descending, nullsFirst: item.nullsFirst ?? !item.descending };
  });
  return {
    kind: 'select',
    bindings,
    from,
    where,
    aggregate: grouping
      ? { keys: grouping.keys.map((k) => k.expr), calls: grouping.calls, sets: select.groupingSets }
      : undefined,
    having,
    windows: windows.calls,
    qualify,
    outputs,
    orderBy,
    distinct: select.distinct,
    limit: constant(select.limit, env.text, 'LIMIT'),
    offset: constant(select.offset, env.text, 'OFFSET'),
  };
}

function readsWindow(e: BExpr): boolean {
  return e.kind === 'win' || childExprs(e).some(readsWindow);
}

function hasNestedLeft(tree: JoinTree): boolean {
  return (
    tree.kind === 'join' &&
    (tree.type === 'left' || tree.type === 'full' || hasNestedLeft(tree.left) || hasNestedLeft(tree.right))
  );
}

/** GROUP BY 2 and GROUP BY alias mean the listed column's expression. */
function groupSource(e: Expr, select: Select, text: string): Expr {
  if (isPosition(e, text)) {
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
