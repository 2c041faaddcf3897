import type { AttributeValue, Item } from '../../../shared/dynamo/attribute-value';
import { defineOwn } from '../../../shared/dynamo/proto-keys';
import type { KeySchema } from '../../../shared/ipc/tables';

function sortedValue(value: AttributeValue): AttributeValue {
  if ('M' in value) return { M: sortedMap(value.M) };
  if ('L' in value) return { L: value.L.map(sortedValue) };
  return value;
}

function sortedMap(map: Item): Item {
  const out: Item = {};
  for (const name of Object.keys(map).sort()) defineOwn(out, name, sortedValue(map[name]!));
  return out;
}

/**
 * The item with its attributes in the order people look for them: the table's key first, then
 * the grid's column order, then the rest by name; nested maps by name. DynamoDB keeps no order,
 * so without this every load shuffles the text and PK/SK end up anywhere.
 */
export function inDisplayOrder(item: Item, keys: KeySchema, columns: readonly string[] = []): Item {
  const keyNames = [keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])];
  const rest = Object.keys(item).sort();
  const order = [...new Set([...keyNames, ...columns, ...rest])];
  const out: Item = {};
  for (const name of order) {
    if (Object.hasOwn(item, name)) defineOwn(out, name, sortedValue(item[name]!));
  }
  return out;
}
