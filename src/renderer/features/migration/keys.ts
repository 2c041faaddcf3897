import { fromPlainKey, keyTypes } from '../../../shared/dynamo/plain-key';
import type { Item, KeySchema, PlainKey } from '../../../shared/ipc';

/** A report's plain-JSON key back to DynamoDB's tagged form, using the key schema's types. */
export function taggedKey(key: PlainKey, keys: KeySchema): Item {
  return fromPlainKey(key, keyTypes(keys));
}

export function keyLabel(key: PlainKey): string {
  return Object.values(key).map(String).join(' · ');
}
