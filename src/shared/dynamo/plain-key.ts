import type { KeySchema } from '../ipc/tables';
import type { AttributeValue, Item } from './attribute-value';
import { defineOwn, ownValue } from './proto-keys';

/** A key as plain JSON (reports, sample keys): numbers may be JS numbers or decimal strings, binary is base64. */
export type PlainKeyValues = Record<string, string | number>;

/** The key attributes' types, from a table's (or index's) key schema. */
export function keyTypes(keys: KeySchema): Record<string, 'S' | 'N' | 'B'> {
  const types: Record<string, 'S' | 'N' | 'B'> = { [keys.partitionKey.name]: keys.partitionKey.type };
  if (keys.sortKey) defineOwn(types, keys.sortKey.name, keys.sortKey.type);
  return types;
}

/** A plain-JSON key back to DynamoDB's tagged form, typed by the key schema (never guessed from the value). */
export function fromPlainKey(key: PlainKeyValues, types: Record<string, 'S' | 'N' | 'B'>): Item {
  const out: Item = {};
  for (const [name, value] of Object.entries(key)) {
    const type = ownValue(types, name) ?? 'S';
    const tagged: AttributeValue =
      type === 'N' ? { N: String(value) } : type === 'B' ? { B: String(value) } : { S: String(value) };
    defineOwn<AttributeValue>(out, name, tagged);
  }
  return out;
}
