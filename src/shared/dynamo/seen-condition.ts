import type { Item } from './attribute-value';
import {
  type ExpressionContext,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_OPERATORS,
} from './expression-context';
import { ownValue } from './proto-keys';

export interface ConditionCoverage {
  /** Attributes whose seen value (or absence) the condition checks. */
  checked: number;
  /** Attributes the user saw or added; when checked < total the condition had to leave some out. */
  total: number;
}

export interface SeenCondition {
  expression: string;
  coverage: ConditionCoverage;
}

/**
 * Optimistic concurrency without a version attribute: the write only happens if every
 * attribute the user saw still holds the value they saw, and every attribute they added is
 * still absent. Attributes the user touched go first; the rest follow while the condition stays
 * inside DynamoDB's expression limits (4 KB, 300 operators), and coverage says if any were left out.
 */
export function seenCondition(
  ctx: ExpressionContext,
  seen: Item,
  touched: readonly string[],
  added: readonly string[],
  budget: { length: number; operators: number } = {
    length: MAX_EXPRESSION_LENGTH,
    operators: MAX_EXPRESSION_OPERATORS,
  },
): SeenCondition {
  const order = [...new Set([...touched.filter((n) => Object.hasOwn(seen, n)), ...Object.keys(seen)])];
  // Decide what fits before registering placeholders: DynamoDB refuses unused names or values.
  // Placeholders are at most 6 characters (#n9999), so these lengths are upper bounds.
  const wanted = [
    ...added.map((name) => ({ name, value: undefined })),
    ...order.flatMap((name) => {
      const value = ownValue(seen, name);
      return value ? [{ name, value }] : [];
    }),
  ];
  const chosen: typeof wanted = [];
  let length = 0;
  let operators = 0;
  for (const entry of wanted) {
    const extra = (entry.value ? 15 : 28) + (chosen.length > 0 ? 5 : 0);
    const extraOps = chosen.length > 0 ? 2 : 1;
    if (chosen.length > 0 && (length + extra > budget.length || operators + extraOps > budget.operators))
      break;
    chosen.push(entry);
    length += extra;
    operators += extraOps;
  }
  const parts = chosen.map(({ name, value }) =>
    value ? `${ctx.name(name)} = ${ctx.value(value)}` : `attribute_not_exists(${ctx.name(name)})`,
  );
  const checked = chosen.length;
  return { expression: parts.join(' AND '), coverage: { checked, total: order.length + added.length } };
}
