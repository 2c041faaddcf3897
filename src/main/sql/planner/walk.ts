import type { BExpr, Binding, BoundQuery, BoundSelect, JoinTree } from '../binder/bound';
import { childExprs } from '../binder/conjuncts';

function queriesIn(e: BExpr | undefined, out: BoundQuery[]): void {
  if (!e) return;
  if (e.kind === 'inQuery' || e.kind === 'exists' || e.kind === 'scalar') out.push(e.query);
  for (const child of childExprs(e)) queriesIn(child, out);
}

function onConditions(tree: JoinTree | undefined, out: BoundQuery[]): void {
  if (!tree || tree.kind === 'binding') return;
  for (const e of tree.on) queriesIn(e, out);
  onConditions(tree.left, out);
  onConditions(tree.right, out);
}

/**
 * The queries directly inside a select, in one order (its bindings' conditions, ON, WHERE, HAVING,
 * outputs, ORDER BY, GROUP BY keys, aggregate arguments, QUALIFY, windows, derived tables):
 * walked in place, not gathered into a list of every expression first.
 */
function nested(select: BoundSelect): BoundQuery[] {
  const out: BoundQuery[] = [];
  const each = (exprs: readonly (BExpr | undefined)[]): void => {
    for (const e of exprs) queriesIn(e, out);
  };
  for (const b of select.bindings) {
    each(b.local);
    each(b.after);
  }
  onConditions(select.from, out);
  each(select.where);
  queriesIn(select.having, out);
  for (const o of select.outputs) if (o.kind === 'expr') queriesIn(o.expr, out);
  for (const k of select.orderBy) queriesIn(k.expr, out);
  if (select.aggregate) {
    each(select.aggregate.keys);
    for (const c of select.aggregate.calls) queriesIn(c.arg, out);
  }
  queriesIn(select.qualify, out);
  for (const w of select.windows) {
    each(w.args);
    each(w.partitionBy);
    for (const k of w.orderBy) queriesIn(k.expr, out);
  }
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
