import { hashKey } from '../values/compare';
import type { BExpr, Binding, JoinTree } from './bound';
import { sharedChildren } from './expr-children';

/** `a AND b AND c` → [a, b, c]. */
export function conjuncts(e: BExpr): BExpr[] {
  if (e.kind === 'binary' && e.op === 'AND') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

export function and(parts: BExpr[]): BExpr | undefined {
  return parts.reduce<BExpr | undefined>(
    (acc, part) => (acc ? { kind: 'binary', op: 'AND', left: acc, right: part } : part),
    undefined,
  );
}

/**
 * The expressions directly inside one node, in a fixed order. Subqueries are not among them
 * (they are queries of their own; walk.ts collects them), but the outer values a correlated
 * subquery reads are: they are expressions of this query.
 */
export function childExprs(e: BExpr): BExpr[] {
  switch (e.kind) {
    case 'lit':
    case 'col':
    case 'slot':
    case 'param':
      return [];
    case 'exists':
    case 'scalar':
      return e.params;
    case 'inQuery':
      return [e.operand, ...e.params];
    case 'win':
    case 'grouping':
      return [];
    case 'unary':
    case 'isNull':
    case 'isMissing':
    case 'cast':
    case 'binary':
    case 'between':
    case 'inList':
    case 'like':
    case 'case':
      return sharedChildren<BExpr>(e);
    case 'call':
      return e.args;
  }
}

/** Bindings an expression reads (a correlated subquery reads those of its params). */
export function bindingsOf(e: BExpr, into = new Set<number>()): Set<number> {
  if (e.kind === 'col') into.add(e.binding);
  for (const child of childExprs(e)) bindingsOf(child, into);
  return into;
}

type Col = Extract<BExpr, { kind: 'col' }>;
const plainCol = (e: BExpr): e is Col => e.kind === 'col' && e.path.length === 0;

/**
 * `o.userId = u.userId AND u.userId = 'u1'` implies `o.userId = 'u1'`; adding that to o's own
 * conditions lets the planner turn o's fetch into a Query instead of a Scan. Only along inner
 * joins, and from the kept side into the optional side of a LEFT JOIN (never back).
 */
export function propagateEqualities(tree: JoinTree, bindings: Binding[]): void {
  if (tree.kind !== 'join') return;
  propagateEqualities(tree.left, bindings);
  propagateEqualities(tree.right, bindings);
  if (tree.type !== 'inner' && tree.type !== 'left') return;
  for (const condition of tree.on) {
    if (
      condition.kind !== 'binary' ||
      condition.op !== '=' ||
      !plainCol(condition.left) ||
      !plainCol(condition.right)
    )
      continue;
    const pairs: [Col, Col][] = [
      [condition.left, condition.right],
      [condition.right, condition.left],
    ];
    for (const [from, to] of pairs) {
      const target = bindings[to.binding]!;
      const source = bindings[from.binding]!;
      if (tree.type === 'left' && !(target.nullable && !source.nullable)) continue;
      if (tree.type === 'inner' && (target.nullable || source.nullable)) continue;
      for (const known of [...source.local]) {
        const value = equalityValue(known, from);
        if (value === undefined) continue;
        const implied: BExpr = {
          kind: 'binary',
          op: '=',
          left: { kind: 'col', binding: to.binding, attr: to.attr, path: [] },
          right: value,
        };
        if (!target.local.some((existing) => sameEquality(existing, implied))) target.local.push(implied);
      }
    }
  }
}

function equalityValue(e: BExpr, column: Col): BExpr | undefined {
  if (e.kind !== 'binary' || e.op !== '=') return undefined;
  const matches = (x: BExpr): boolean =>
    plainCol(x) && x.binding === column.binding && x.attr === column.attr;
  if (matches(e.left) && e.right.kind === 'lit') return e.right;
  if (matches(e.right) && e.left.kind === 'lit') return e.left;
  return undefined;
}

function sameEquality(a: BExpr, b: BExpr): boolean {
  if (a.kind !== 'binary' || b.kind !== 'binary' || a.op !== '=' || b.op !== '=') return false;
  if (a.left.kind !== 'col' || b.left.kind !== 'col' || a.right.kind !== 'lit' || b.right.kind !== 'lit')
    return false;
  return (
    a.left.attr === b.left.attr &&
    a.left.binding === b.left.binding &&
    hashKey(a.right.value) === hashKey(b.right.value)
  );
}
