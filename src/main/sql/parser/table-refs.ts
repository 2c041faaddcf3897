import type { Expr, FromItem, Query } from './ast';

export interface TableRef {
  name: string;
  schema?: string;
}

function fromRefs(item: FromItem, out: TableRef[]): void {
  if (item.kind === 'table') out.push({ name: item.name, schema: item.schema });
  else if (item.kind === 'subquery') queryRefs(item.query, out);
  else {
    fromRefs(item.left, out);
    fromRefs(item.right, out);
    if (item.on) exprRefs(item.on, out);
  }
}

function exprRefs(e: Expr | undefined, out: TableRef[]): void {
  if (!e) return;
  switch (e.kind) {
    case 'inQuery':
      exprRefs(e.operand, out);
      queryRefs(e.query, out);
      return;
    case 'exists':
    case 'subquery':
      queryRefs(e.query, out);
      return;
    case 'literal':
    case 'ref':
      return;
    case 'unary':
    case 'isNull':
    case 'cast':
      exprRefs(e.operand, out);
      return;
    case 'binary':
      exprRefs(e.left, out);
      exprRefs(e.right, out);
      return;
    case 'between':
      [e.operand, e.low, e.high].forEach((x) => exprRefs(x, out));
      return;
    case 'inList':
      [e.operand, ...e.items].forEach((x) => exprRefs(x, out));
      return;
    case 'like':
      [e.operand, e.pattern, e.escape].forEach((x) => exprRefs(x, out));
      return;
    case 'case':
      [e.operand, e.otherwise, ...e.whens.flatMap((w) => [w.when, w.then])].forEach((x) => exprRefs(x, out));
      return;
    case 'call':
      e.args.forEach((x) => exprRefs(x, out));
      return;
  }
}

/** Every table or view name a statement reads, subqueries included (to load only those). */
export function queryRefs(query: Query, out: TableRef[] = []): TableRef[] {
  if (query.kind === 'union') {
    queryRefs(query.left, out);
    queryRefs(query.right, out);
    return out;
  }
  if (query.from) fromRefs(query.from, out);
  [query.where, query.having, ...query.groupBy, ...query.orderBy.map((o) => o.expr)].forEach((e) =>
    exprRefs(e, out),
  );
  for (const item of query.items) if (item.kind === 'expr') exprRefs(item.expr, out);
  return out;
}
