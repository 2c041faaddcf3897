import type { Item } from '../../shared/dynamo/attribute-value';

/** One table key as text: how a written item finds its row (values tagged, so 1 and "1" differ). */
export function itemKeyText(item: Item, tableKeys: string[]): string {
  return JSON.stringify(tableKeys.map((name) => item[name] ?? null));
}
