import type { EntityView, TableInfo } from '../../../shared/sql/catalog';
import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import type { Expr, FromItem, Query, Select } from '../../sql/parser/ast';
import type { AttrNode } from '../export-schema';
import { ionUnreadable } from '../glue-table';
import { type ExportFormat, glueFieldName, lit, q } from '../glue-names';
import { type ExprEnv, translateExpr, written } from './expr';
import { orderSuffix } from './expr';
import { refuse, Scope, type Source } from './scope';
import { asType, asValue, carriesText, renamed, soleType, sortKeys, type Typed, val } from './typed';
import { keyAttributes } from '../../../shared/dynamo/key-model';
import { compareNumberValues, numberLiteral } from './numbers';
import { uniqueNames } from '../../sql/executor/result';
import { outputName } from '../../sql/binder/bind-query';

export interface GlueTarget {
  database: string;
  /** The Glue table of each DynamoDB table's export, and what the export holds. */
  tables: Map<string, { glueTable: string; root: AttrNode; format?: ExportFormat; complete?: boolean }>;
}

export interface QueryEnv {
  text: string;
  notes: string[];
  target: GlueTarget;
  resolveTable: (name: string, schema: string | undefined) => { table: TableInfo; view?: EntityView };
}

interface Translated {
  sql: string;
  names: string[];
  columns: Typed[];
}

type Ctes = Map<string, Map<string, Typed>>;

export function translateQuery(
  query: Query,
  env: QueryEnv,
  parent: Scope | undefined,
  ctes: Ctes,
  derived: boolean,
): Translated {
  const scoped = new Map(ctes);
  const withs: string[] = [];
  for (const cte of query.ctes ?? []) {
    const t = translateQuery(cte.query, env, parent, scoped, true);
    const names = cte.columns ?? t.names;
    scoped.set(cte.name, new Map(names.map((n, i) => [n, t.columns[i]!])));
    const columnList = cte.columns ? `(${cte.columns.map(q).join(', ')})` : '';
    withs.push(`${q(cte.name)}${columnList} AS (${t.sql})`);
  }
  const body =
    query.kind === 'select' ? select(query, env, parent, scoped, derived) : setop(query, env, parent, scoped);
  return { ...body, sql: withs.length ? `WITH ${withs.join(', ')} ${body.sql}` : body.sql };
}

function tail(query: Query, env: QueryEnv): string {
  const number = (e: Expr | undefined): string | undefined => {
    if (!e) return undefined;
    if (e.kind !== 'literal' || e.value.type !== 'number')
      return refuse(env.text.slice(e.span.start, e.span.end), 'LIMIT and OFFSET must be numbers');
    return e.value.text;
  };
  const offset = number(query.offset);
  const limit = number(query.limit);
  // Athena (Trino) wants OFFSET before LIMIT.
  return `${offset ? ` OFFSET ${offset}` : ''}${limit ? ` LIMIT ${limit}` : ''}`;
}

function setop(
  query: Extract<Query, { kind: 'setop' }>,
  env: QueryEnv,
  parent: Scope | undefined,
  ctes: Ctes,
): Translated {
  const left = translateQuery(query.left, env, parent, ctes, false);
  const right = translateQuery(query.right, env, parent, ctes, false);
  left.columns.forEach((c, i) => {
    const [a, b] = [soleType(c), right.columns[i] ? soleType(right.columns[i]) : undefined];
    if (a && b && a !== b)
      refuse(
        `${query.op} of column ${i + 1}`,
        `its sides hold ${a} and ${b}, and an Athena column has one type`,
      );
    const other = right.columns[i];
    if (a === 'N' && b === 'N' && other && carriesText(c) !== carriesText(other))
      refuse(
        `${query.op} of column ${i + 1}`,
        'one side holds numbers no DECIMAL holds, which Athena carries as text, and the other a DECIMAL',
      );
  });
  const order = query.orderBy.map((o) => {
    const e = o.expr;
    let position = -1;
    if (e.kind === 'literal' && e.value.type === 'number') position = Number(e.value.text) - 1;
    else if (e.kind === 'ref' && e.parts.length === 1 && e.parts[0]!.kind === 'name')
      position = left.names.indexOf(e.parts[0]!.name);
    if (position < 0)
      refuse(
        written({ text: env.text } as ExprEnv, e),
        `ORDER BY after ${query.op} must name an output column`,
      );
    const column = left.columns[position];
    if (column && carriesText(column))
      refuse(
        written({ text: env.text } as ExprEnv, e),
        `ORDER BY after ${query.op} would order a number no DECIMAL holds by its text`,
      );
    return `${position + 1}${orderSuffix(o.descending, o.nullsFirst)}`;
  });
  const sql = `(${left.sql}) ${query.op}${query.all ? ' ALL' : ''} (${right.sql})${order.length ? ` ORDER BY ${order.join(', ')}` : ''}${tail(query, env)}`;
  return { sql, names: left.names, columns: left.columns };
}

function keyTest(
  item: string,
  root: AttrNode,
  c: { attribute: string; op: string; values: AttributeValue[] },
  ion: boolean,
): string {
  const [first, second] = c.values.map((v) => {
    if ('S' in v) return { member: 's', sql: lit(v.S) };
    if ('N' in v) return { member: 'n', sql: v.N };
    if ('B' in v) return { member: 'b', sql: lit(v.B) };
    return refuse('an entity view', 'its key condition has a value that is not a string, number or binary');
  });
  // An Ion export's values are native (no type member); binary is compared as base64 text.
  const field = `${item}.${q(glueFieldName(c.attribute))}`;
  const col = !ion ? `${field}.${q(first!.member)}` : first!.member === 'b' ? `to_base64(${field})` : field;
  if (first!.member === 'n') {
    // A number key compared in its own DECIMAL, each bound fitted to it as a literal is.
    const key: Typed = {
      kind: 'attr',
      sql: field,
      node: root.children.get(c.attribute),
      label: c.attribute,
      ...(ion ? { ion: true } : {}),
    };
    const test = (op: string, value: string): string =>
      compareNumberValues(op, key, numberLiteral(value), `the entity view's key condition on ${c.attribute}`);
    if (c.op === 'between') return `(${test('>=', first!.sql)} AND ${test('<=', second!.sql)})`;
    return test(c.op, first!.sql);
  }
  if (c.op === 'begins_with') return `starts_with(${col}, ${first!.sql})`;
  if (c.op === 'between') return `${col} BETWEEN ${first!.sql} AND ${second!.sql}`;
  return `${col} ${c.op} ${first!.sql}`;
}

/** A table or entity view of the export: a view is its key condition (and, on an index, the items the index holds). */
function baseTable(
  name: string,
  schema: string | undefined,
  alias: string,
  env: QueryEnv,
  scope: Scope,
): string {
  const { table, view } = env.resolveTable(name, schema);
  const glue = env.target.tables.get(table.name);
  if (!glue) return refuse(`the table ${table.name}`, 'it has no export in Athena');
  scope.sources.push({
    kind: 'base',
    alias,
    root: glue.root,
    table: table.name,
    ion: glue.format === 'ION',
    complete: glue.complete ?? false,
  });
  const from = `${q(env.target.database)}.${q(glue.glueTable)}`;
  if (!view) return `${from} AS ${q(alias)}`;
  const item = `${q('v')}.${q('item')}`;
  const tests = view.conditions.map((c) => keyTest(item, glue.root, c, glue.format === 'ION'));
  const index = view.index ? table.indexes.find((i) => i.name === view.index) : undefined;
  // An index holds the items that have every one of its key attributes: up to four partition
  // and four sort attributes on a global secondary index (multi-attribute keys, issue 28).
  if (index)
    for (const key of keyAttributes(index.keys))
      tests.push(`${item}.${q(glueFieldName(key.name))} IS NOT NULL`);
  return `(SELECT * FROM ${from} AS ${q('v')} WHERE ${tests.join(' AND ')}) AS ${q(alias)}`;
}

function from(item: FromItem, env: QueryEnv, scope: Scope, ctes: Ctes): string {
  if (item.kind === 'table') {
    const alias = item.alias ?? item.name;
    const cte = item.schema === undefined ? ctes.get(item.name) : undefined;
    if (cte) {
      scope.sources.push({ kind: 'derived', alias, columns: cte });
      return `${q(item.name)} AS ${q(alias)}`;
    }
    return baseTable(item.name, item.schema, alias, env, scope);
  }
  if (item.kind === 'subquery') {
    // A FROM subquery cannot read its siblings (no LATERAL), only the enclosing queries.
    const t = translateQuery(item.query, env, scope.parent, ctes, true);
    scope.sources.push({
      kind: 'derived',
      alias: item.alias,
      columns: new Map(t.names.map((n, i) => [n, t.columns[i]!])),
    });
    return `(${t.sql}) AS ${q(item.alias)}`;
  }
  const left = from(item.left, env, scope, ctes);
  const right = from(item.right, env, scope, ctes);
  const kind = {
    inner: 'JOIN',
    left: 'LEFT JOIN',
    right: 'RIGHT JOIN',
    full: 'FULL JOIN',
    cross: 'CROSS JOIN',
  }[item.type];
  if (!item.on) return `${left} ${kind} ${right}`;
  const on = asType(translateExpr(item.on, exprEnv(env, scope, ctes)), 'BOOL');
  return `${left} ${kind} ${right} ON ${on}`;
}

function exprEnv(env: QueryEnv, scope: Scope, ctes: Ctes, aliases?: Map<string, Expr>): ExprEnv {
  return {
    scope,
    notes: env.notes,
    text: env.text,
    aliases,
    subquery: (query, outer) => translateQuery(query, env, outer, ctes, false),
  };
}

/** An expression that reads no column, no subquery and no aggregate: the same for every row. */
function isConstant(e: Expr): boolean {
  if (e.kind === 'ref' || e.kind === 'subquery' || e.kind === 'exists' || e.kind === 'inQuery') return false;
  if (e.kind === 'call') return false;
  return Object.values(e).every((v) =>
    Array.isArray(v)
      ? v.every((x) => !(x && typeof x === 'object' && 'kind' in x && 'span' in x) || isConstant(x as Expr))
      : !(v && typeof v === 'object' && 'kind' in v && 'span' in v) || isConstant(v as Expr),
  );
}

function isAggregateCall(e: Expr): boolean {
  if (e.kind === 'call' && !e.over && ['COUNT', 'SUM', 'AVG', 'MIN', 'MAX'].includes(e.name.toUpperCase()))
    return true;
  return Object.values(e).some((v) =>
    Array.isArray(v)
      ? v.some((x) => x && typeof x === 'object' && 'kind' in x && 'span' in x && isAggregateCall(x as Expr))
      : v && typeof v === 'object' && 'kind' in v && 'span' in v && isAggregateCall(v as Expr),
  );
}

function select(
  s: Select,
  env: QueryEnv,
  parent: Scope | undefined,
  ctes: Ctes,
  derived: boolean,
): Translated {
  const scope = new Scope(parent);
  const fromSql = s.from ? from(s.from, env, scope, ctes) : undefined;
  const grouped =
    s.groupBy.length > 0 ||
    s.items.some((i) => i.kind === 'expr' && isAggregateCall(i.expr)) ||
    s.having !== undefined;
  // Structs pass through a plain subquery, so the outer query still tells a number from a string and MISSING from NULL.
  const passThrough = derived && !grouped && !s.distinct && !s.qualify;
  const plain = exprEnv(env, scope, ctes);
  const names: string[] = [];
  const columns: Typed[] = [];
  const list: string[] = [];
  const aliases = new Map<string, Expr>();
  for (const item of s.items) {
    if (item.kind === 'star') {
      const sources = item.qualifier
        ? scope.sources.filter((x) => x.alias === item.qualifier)
        : scope.sources;
      for (const source of sources) starColumns(source, names, columns, list, passThrough, env);
      continue;
    }
    const name = outputName(item, env.text, { findAlias: (alias: string) => scope.find(alias) });
    const t = translateExpr(item.expr, plain);
    const out = passThrough && t.kind === 'attr' ? t : asValue(t, env.notes);
    names.push(name);
    columns.push(out);
    list.push(`${out.sql} AS ${q(name)}`);
    if (item.alias && !aliases.has(item.alias)) aliases.set(item.alias, item.expr);
  }
  const named = exprEnv(env, scope, ctes, aliases);
  // A second "name" becomes "name_2", as the local engine's results name it.
  const unique = uniqueNames(names);
  unique.forEach((name, i) => {
    names[i] = name;
    list[i] = `${columns[i]!.sql} AS ${q(name)}`;
  });
  let sql = `SELECT ${s.distinct ? 'DISTINCT ' : ''}${list.join(', ')}`;
  if (fromSql) sql += ` FROM ${fromSql}`;
  if (s.where) sql += ` WHERE ${asType(translateExpr(s.where, plain), 'BOOL')}`;
  if (s.groupBy.length) {
    const keys = s.groupBy.map((g) => {
      const e = groupSource(g, s);
      // A constant key is one group, as locally; Athena and DuckDB would read a number as a position.
      if (isConstant(e)) return "'constant'";
      const key = asValue(translateExpr(e, named), env.notes);
      // A number carried as text groups by its canonical text; its sort key is a grouping key too,
      // so ORDER BY, HAVING and MIN/MAX can read it (it is one per text, so the groups are the same).
      return key.kind === 'val' && key.text ? `${key.sql}, ${key.text.key}` : key.sql;
    });
    sql += s.groupingSets
      ? ` GROUP BY GROUPING SETS (${s.groupingSets.map((set) => `(${set.map((i) => keys[i]).join(', ')})`).join(', ')})`
      : ` GROUP BY ${keys.join(', ')}`;
  }
  if (s.having) sql += ` HAVING ${asType(translateExpr(s.having, named), 'BOOL')}`;
  const order = s.orderBy
    .map((o) => {
      const e = o.expr;
      const position = e.kind === 'literal' && e.value.type === 'number' ? Number(e.value.text) : undefined;
      const suffix = orderSuffix(o.descending, o.nullsFirst);
      if (position !== undefined) {
        const column = columns[position - 1];
        // A listed number carried as text orders by its sort key, not by the column's text.
        if (column?.kind === 'val' && column.text) return [{ key: column.text.key, suffix, text: true }];
        return [{ key: String(position), suffix, text: false }];
      }
      const t = translateExpr(e, named);
      return sortKeys(t, env.notes).map((key) => ({ key, suffix, text: carriesText(t) }));
    })
    .flat();
  // SELECT DISTINCT may order only by what it lists, and a sort key is not listed: it becomes a
  // hidden column of an inner query (one key per text, so DISTINCT keeps the same rows).
  const hiddenKeys = s.distinct && order.some((o) => o.text);
  if (!s.qualify && !hiddenKeys) {
    if (order.length) sql += ` ORDER BY ${order.map((o) => o.key + o.suffix).join(', ')}`;
    return { sql: sql + tail(s, env), names, columns };
  }
  // Athena has no QUALIFY: the window condition becomes a column of an inner query filtered outside.
  const qualify = s.qualify ? asType(translateExpr(s.qualify, named), 'BOOL') : undefined;
  const hidden = order
    .map((o, i) => (/^\d+$/.test(o.key) ? undefined : `${o.key} AS ${q(`__order${i}`)}`))
    .filter(Boolean);
  const inner = sql.replace(
    /^SELECT (DISTINCT )?/,
    (m) => `${m}${[...(qualify ? [`${qualify} AS ${q('__qualify')}`] : []), ...hidden].join(', ')}, `,
  );
  const outerOrder = order.map(
    (o, i) => (/^\d+$/.test(o.key) ? q(names[Number(o.key) - 1]!) : q(`__order${i}`)) + o.suffix,
  );
  const outer = `SELECT ${names.map(q).join(', ')} FROM (${inner}) AS ${q('__q')}${qualify ? ` WHERE ${q('__qualify')}` : ''}${outerOrder.length ? ` ORDER BY ${outerOrder.join(', ')}` : ''}${tail(s, env)}`;
  return {
    sql: outer,
    names,
    columns: columns.map((c, i) =>
      c.kind !== 'val' ? val(q(names[i]!), 'ANY') : c.text ? renamed(c, q(names[i]!)) : c,
    ),
  };
}

function starColumns(
  source: Source,
  names: string[],
  columns: Typed[],
  list: string[],
  passThrough: boolean,
  env: QueryEnv,
): void {
  if (source.kind === 'derived') {
    for (const [name, column] of source.columns) {
      const t = renamed(column, `${q(source.alias)}.${q(name)}`);
      const out = passThrough || t.kind === 'val' ? t : asValue(t, env.notes);
      names.push(name);
      columns.push(out);
      list.push(`${out.sql} AS ${q(name)}`);
    }
    return;
  }
  for (const [name, node] of source.root.children) {
    const why = source.ion ? ionUnreadable(node, name.includes('.') ? `"${name}"` : name) : undefined;
    if (why || (source.ion && name.includes('.')))
      refuse(
        `the attribute ${name}`,
        why ?? `"${name}" has a dot in its name, which Athena's Ion SerDe cannot read`,
      );
    const t: Typed = {
      kind: 'attr',
      sql: `${q(source.alias)}.${q('item')}.${q(glueFieldName(name))}`,
      node,
      ion: source.ion,
      label: name,
    };
    const out = passThrough ? t : asValue(t, env.notes);
    names.push(name);
    columns.push(out);
    list.push(`${out.sql} AS ${q(name)}`);
  }
}

/** GROUP BY 2 and GROUP BY alias mean the listed column's expression, as DynoTable binds them. */
function groupSource(e: Expr, s: Select): Expr {
  if (e.kind === 'literal' && e.value.type === 'number' && /^\d+$/.test(e.value.text)) {
    const item = s.items[Number(e.value.text) - 1];
    if (item?.kind === 'expr') return item.expr;
  }
  return e;
}
