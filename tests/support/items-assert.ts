import { expect } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { diffItems } from '../../src/shared/dynamo/diff';
import { itemsEqual } from '../../src/shared/dynamo/value-equality';

/**
 * Items are the same when DynamoDB would call them equal: numbers by value (DynamoDB stores
 * 100.10 as 100.1), sets in any order. On failure, the message lists the differing attributes.
 */
export function expectSameItem(actual: Item | null | undefined, expected: Item): void {
  expect(actual, 'the item is missing').toBeTruthy();
  if (!actual) return;
  const diff = diffItems(expected, actual);
  expect(itemsEqual(actual, expected), `differs: ${JSON.stringify(diff, null, 1).slice(0, 2000)}`).toBe(true);
}
