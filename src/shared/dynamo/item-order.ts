import type { AttributeValue, Item } from './attribute-value';
import { defineOwn } from './proto-keys';

/**
 * The one attribute order of every JSON view of an item (the item editor's JSON tabs, the value
 * popover, the exports): the key attributes first in key-model order (`viewKeyNames`: the
 * table's key, then the viewed index's key), then `columns` (the grid's order, where there is
 * one), then the rest by name; nested maps by name. DynamoDB keeps no order, so without this
 * every load shuffles the text and the key ends up anywhere.
 */
export function inKeyOrder(item: Item, keyNames: readonly string[], columns: readonly string[] = []): Item {
  const order = [...new Set([...keyNames, ...columns, ...Object.keys(item).sort()])];
  const out: Item = {};
  for (const name of order) if (Object.hasOwn(item, name)) defineOwn(out, name, inNameOrder(item[name]!));
  return out;
}

/** A value with the names of its nested maps sorted, at every depth (a list keeps its order). */
export function inNameOrder(value: AttributeValue): AttributeValue {
  if ('M' in value) return { M: inKeyOrder(value.M, []) };
  if ('L' in value) return { L: value.L.map(inNameOrder) };
  return value;
}
