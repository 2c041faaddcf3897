/**
 * The node shapes the parser's tree (`Expr`) and the binder's (`BExpr`) have in common, for
 * either tree: operators, CASE, CAST, LIKE, IN (list) and BETWEEN keep their operands under the
 * same names in both. Each tree's walker adds only the kinds that differ (names and subqueries
 * before binding; columns, slots and correlated parameters after).
 */
export type SharedNode<E> =
  | { kind: 'unary' | 'isNull' | 'isMissing' | 'cast'; operand: E }
  | { kind: 'binary'; left: E; right: E }
  | { kind: 'between'; operand: E; low: E; high: E }
  | { kind: 'inList'; operand: E; items: E[] }
  | { kind: 'like'; operand: E; pattern: E; escape?: E }
  | { kind: 'case'; operand?: E; whens: { when: E; then: E }[]; otherwise?: E };

/** The expressions directly inside a shared node, in a fixed order. */
export function sharedChildren<E>(e: SharedNode<E>): E[] {
  switch (e.kind) {
    case 'unary':
    case 'isNull':
    case 'isMissing':
    case 'cast':
      return [e.operand];
    case 'binary':
      return [e.left, e.right];
    case 'between':
      return [e.operand, e.low, e.high];
    case 'inList':
      return [e.operand, ...e.items];
    case 'like':
      return e.escape ? [e.operand, e.pattern, e.escape] : [e.operand, e.pattern];
    case 'case':
      return [
        ...(e.operand ? [e.operand] : []),
        ...(e.otherwise ? [e.otherwise] : []),
        ...e.whens.flatMap((w) => [w.when, w.then]),
      ];
  }
}
