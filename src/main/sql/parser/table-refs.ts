import type { Expr, FromItem, Query } from './ast';

export interface TableRef {
  name: string;
  schema?: string;
}

/** Names of the WITH queries in scope (lower-cased): they are no tables to load. */
type Ctes = ReadonlySet<string>;

function fromRefs(item: FromItem, out: TableRef[], ctes: Ctes): void {
  if (item.kind === 'table') {
    if (item.schema !== undefined || !ctes.has(item.name.toLowerCase()))
      out.push({ name: item.name, schema: item.schema });
  } else if (item.kind === 'subquery') queryRefs(item.query, out, ctes);
  else {
    fromRefs(item.left, out, ctes);
    fromRefs(item.right, out, ctes);
    if (item.on) exprRefs(item.on, out, ctes);
  }
}

function exprRefs(e: Expr | undefined, out: TableRef[], ctes: Ctes): void {
  if (!e) return;
  switch (e.kind) {
    case 'inQuery':
      exprRefs(e.operand, out, ctes);
      queryRefs(e.query, out, ctes);
      return;
    case 'exists':
    case 'subquery':
      queryRefs(e.query, out, ctes);
      return;
    case 'literal':
    case 'ref':
      return;
    case 'unary':
    case 'isNull':
    case 'isMissing':
    case 'cast':
      exprRefs(e.operand, out, ctes);
      return;
    case 'binary':
      exprRefs(e.left, out, ctes);
      exprRefs(e.right, out, ctes);
      return;
    case 'between':
      [e.operand, e.low, e.high].forEach((x) => exprRefs(x, out, ctes));
      return;
    case 'inList':
      [e.operand, ...e.items].forEach((x) => exprRefs(x, out, ctes));
      return;
    case 'like':
      [e.operand, e.pattern, e.escape].forEach((x) => exprRefs(x, out, ctes));
      return;
    case 'case':
      [e.operand, e.otherwise, ...e.whens.flatMap((w) => [w.when, w.then])].forEach((x) =>
        exprRefs(x, out, ctes),
      );
      return;
    case 'call':
      e.args.forEach((x) => exprRefs(x, out, ctes));
      if (e.over)
        [...e.over.partitionBy, ...e.over.orderBy.map((o) => o.expr)].forEach((x) => exprRefs(x, out, ctes));
      return;
    case 'grouping':
      return;
  }
}

/** Every table or view name a statement reads, subqueries included (to load only those). */
export function queryRefs(query: Query, out: TableRef[] = [], outer: Ctes = new Set()): TableRef[] {
  let ctes = outer;
  for (const cte of query.ctes ?? []) {
    queryRefs(cte.query, out, ctes);
    ctes = new Set([...ctes, cte.name.toLowerCase()]);
  }
  if (query.kind === 'setop') {
    queryRefs(query.left, out, ctes);
    queryRefs(query.right, out, ctes);
    return out;
  }
  if (query.from) fromRefs(query.from, out, ctes);
  [query.where, query.having, query.qualify, ...query.groupBy, ...query.orderBy.map((o) => o.expr)].forEach(
    (e) => exprRefs(e, out, ctes),
  );
  for (const item of query.items) if (item.kind === 'expr') exprRefs(item.expr, out, ctes);
  return out;
}
