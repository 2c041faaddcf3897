import { and } from '../binder/conjuncts';
import type { BExpr, Binding, BoundQuery, BoundSelect } from '../binder/bound';

/**
 * Conditions on a derived table's columns moved into the derived query, which then keeps only
 * the rows that pass (as its QUALIFY, which runs after its windows and aggregates, so a
 * condition on a window's value means the same there). The common case is "top N per group":
 *
 *   SELECT … FROM (SELECT amount, ROW_NUMBER() OVER (…) AS rn FROM orders) t WHERE rn <= 3
 *
 * where every row of `orders` used to become a row of `t` (its values copied into columns)
 * before `rn <= 3` dropped two thirds of them again, one compiled condition per row.
 *
 * Only what means the same on both sides moves: a condition of comparisons, AND/OR/NOT, IS
 * [NOT] NULL/MISSING, BETWEEN and IN over literals, reading columns that are the derived query's
 * named outputs (no `*`, no two outputs of one name), when that query has no LIMIT/OFFSET (which
 * would count the rows before the condition) and no DISTINCT, and its binding is not on a LEFT
 * JOIN's optional side. Anything else stays where it was.
 *
 * It makes new objects when it moves something: execute.ts keeps one rewrite per select for the
 * statement, so a derived query run twice is the same query (its result memoised).
 */
export function withConditionsInDerived(select: BoundSelect): BoundSelect {
  const bindings = select.bindings.map((binding) => moveInto(binding) ?? binding);
  return bindings.some((binding, i) => binding !== select.bindings[i]) ? { ...select, bindings } : select;
}

function moveInto(binding: Binding): Binding | undefined {
  const { source } = binding;
  if (source.kind !== 'derived' || binding.nullable || binding.local.length === 0) return undefined;
  const inner: BoundQuery = source.query;
  if (inner.kind !== 'select' || inner.limit !== undefined || inner.offset !== undefined || inner.distinct)
    return undefined;
  const outputs = new Map<string, BExpr>();
  for (const output of inner.outputs) {
    if (output.kind !== 'expr' || outputs.has(output.name)) return undefined;
    outputs.set(output.name, output.expr);
  }
  const kept: BExpr[] = [];
  const moved: BExpr[] = [];
  for (const condition of binding.local) {
    const inside = substitute(condition, binding.id, outputs);
    if (inside) moved.push(inside);
    else kept.push(condition);
  }
  if (moved.length === 0) return undefined;
  const qualify = and(inner.qualify ? [inner.qualify, ...moved] : moved);
  return { ...binding, local: kept, source: { kind: 'derived', query: { ...inner, qualify } } };
}

/** The condition over the derived query's output expressions; undefined when it cannot move. */
function substitute(e: BExpr, binding: number, outputs: ReadonlyMap<string, BExpr>): BExpr | undefined {
  const sub = (x: BExpr): BExpr | undefined => substitute(x, binding, outputs);
  switch (e.kind) {
    case 'lit':
      return e;
    case 'col':
      return e.binding === binding && e.path.length === 0 ? outputs.get(e.attr) : undefined;
    case 'unary':
    case 'isNull':
    case 'isMissing': {
      const operand = sub(e.operand);
      return operand && { ...e, operand };
    }
    case 'binary': {
      if (e.op === '||') return undefined;
      const [left, right] = [sub(e.left), sub(e.right)];
      return left && right && { ...e, left, right };
    }
    case 'between': {
      const [operand, low, high] = [sub(e.operand), sub(e.low), sub(e.high)];
      return operand && low && high && { ...e, operand, low, high };
    }
    case 'inList': {
      const operand = sub(e.operand);
      return operand && e.items.every((item) => item.kind === 'lit') ? { ...e, operand } : undefined;
    }
    default:
      return undefined;
  }
}
