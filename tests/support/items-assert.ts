import { expect } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { AppError, Envelope } from '../../src/shared/errors';
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

/** The error of an envelope that must have failed, with its code checked. */
export function failure(result: Envelope<unknown>, code: string): AppError {
  if (result.ok)
    throw new Error(
      `expected ${code}, but the call succeeded with ${JSON.stringify(result.value).slice(0, 300)}`,
    );
  expect(result.error.code, result.error.message).toBe(code);
  return result.error;
}
