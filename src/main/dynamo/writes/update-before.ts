import type { Item } from '../../../shared/dynamo/attribute-value';
import { diffItems } from '../../../shared/dynamo/diff';
import { defineOwn } from '../../../shared/dynamo/proto-keys';

/**
 * What an update conditioned on the item the user saw replaced, from what DynamoDB holds after
 * it (ALL_NEW, or the item read back): attributes the update did not touch are DynamoDB's own,
 * also one someone else added after the user loaded the item, and the touched ones held what
 * the user saw, which the condition checked first. Taking the whole item as seen would make
 * undo remove an attribute that someone else added meanwhile.
 */
export function beforeUpdate(stored: Item, seen: Item, desired: Item): Item {
  const before: Item = {};
  for (const [name, value] of Object.entries(stored)) defineOwn(before, name, value);
  for (const change of diffItems(seen, desired)) {
    if (change.before) defineOwn(before, change.name, change.before);
    else Reflect.deleteProperty(before, change.name);
  }
  return before;
}
