import type { AttributeValue } from '../../src/shared/dynamo/attribute-value';
import { defineOwn } from '../../src/shared/dynamo/proto-keys';

/** An item or map from generated [name, value] pairs, `__proto__` and the like kept as own names. */
export function record(entries: [string, AttributeValue][]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [k, v] of entries) defineOwn(out, k, v);
  return out;
}
