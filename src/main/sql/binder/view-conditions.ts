import type { EntityView, KeyCondition } from '../../../shared/sql/catalog';
import { fromTagged } from '../values/value';
import type { BExpr, Binding } from './bound';

/**
 * An entity view's key condition as ordinary SQL conditions on the binding: the engine applies
 * them to whatever was fetched (possibly a shared scan of the whole table), and the planner
 * turns them into a key condition or a filter like any WHERE condition.
 */
export function viewConditionExprs(binding: Binding, view: EntityView): BExpr[] {
  return view.conditions.map((condition) => {
    if (binding.attributes !== 'ALL') binding.attributes.add(condition.attribute);
    return conditionExpr(binding.id, condition);
  });
}

export function conditionExpr(bindingId: number, condition: KeyCondition): BExpr {
  const column: BExpr = { kind: 'col', binding: bindingId, attr: condition.attribute, path: [] };
  const [first, second] = condition.values.map((v) => ({ kind: 'lit' as const, value: fromTagged(v) }));
  switch (condition.op) {
    case 'begins_with':
      return { kind: 'call', name: 'BEGINS_WITH', args: [column, first!], span: { start: 0, end: 0 } };
    case 'between':
      return { kind: 'between', operand: column, low: first!, high: second ?? first!, negated: false };
    default:
      return { kind: 'binary', op: condition.op, left: column, right: first! };
  }
}
