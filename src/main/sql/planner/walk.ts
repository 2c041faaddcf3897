import type { BExpr, Binding, BoundQuery, BoundSelect, JoinTree } from '../binder/bound';
import { childExprs } from '../binder/conjuncts';

function queriesIn(e: BExpr | undefined, out: BoundQuery[]): void {
  if (!e) return;
  if (e.kind === 'inQuery' || e.kind === 'exists' || e.kind === 'scalar') out.push(e.query);
  for (const child of childExprs(e)) queriesIn(child, out);
}

function onConditions(tree: JoinTree | undefined): BExpr[] {
  if (!tree || tree.kind === 'binding') return [];
  return [...tree.on, ...onConditions(tree.left), ...onConditions(tree.right)];
}

function nested(select: BoundSelect): BoundQuery[] {
  const out: BoundQuery[] = [];
  const exprs: (BExpr | undefined)[] = [
    ...select.bindings.flatMap((b) => [...b.local, ...b.after]),
    ...onConditions(select.from),
    ...select.where,
    select.having,
    ...select.outputs.map((o) => (o.kind === 'expr' ? o.expr : undefined)),
    ...select.orderBy.map((k) => k.expr),
    ...(select.aggregate?.keys ?? []),
    ...(select.aggregate?.calls.map((c) => c.arg) ?? []),
    select.qualify,
    ...select.windows.flatMap((w) => [...w.args, ...w.partitionBy, ...w.orderBy.map((k) => k.expr)]),
  ];
  exprs.forEach((e) => queriesIn(e, out));
  for (const b of select.bindings) if (b.source.kind === 'derived') out.push(b.source.query);
  return out;
}

/** Every binding of a base table anywhere in the statement (subqueries included), in order. */
export function baseBindings(query: BoundQuery): Binding[] {
  const seen = new Set<BoundQuery>();
  const out: Binding[] = [];
  const visit = (q: BoundQuery): void => {
    if (seen.has(q)) return;
    seen.add(q);
    if (q.kind === 'setop') {
      visit(q.left);
      visit(q.right);
      return;
    }
    for (const b of q.bindings) if (b.source.kind === 'base') out.push(b);
    nested(q).forEach(visit);
  };
  visit(query);
  return out;
}
