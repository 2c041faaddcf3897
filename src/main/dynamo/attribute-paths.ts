import type { Item } from '../../shared/dynamo/attribute-value';

/** One attribute path seen in a sample of items. */
export interface SeenPath {
  /** The names from the item down (maps), `__proto__` and dots included as they are. */
  names: string[];
  /** The path's first list element (`tags[0]`), recorded for non-empty lists at the top. */
  isListElement: boolean;
  /** Items it was seen in. */
  count: number;
  /** DynamoDB types it held (`S`, `M`, …); empty for a list element. */
  types: Set<string>;
}

/**
 * Every attribute path in a sample, maps followed down to `maxDepth` names, in the order first
 * seen: SQL's autocomplete (sql/catalog) and the agent's table description (agent/reads) each
 * format it their way. Keyed by a Map: attribute names are data.
 */
export function seenPaths(items: Iterable<Item>, maxDepth = 3): SeenPath[] {
  const seen = new Map<string, SeenPath>();
  const note = (names: string[], isListElement: boolean, type?: string): void => {
    const key = JSON.stringify([names, isListElement]);
    let path = seen.get(key);
    if (!path) seen.set(key, (path = { names, isListElement, count: 0, types: new Set() }));
    path.count += 1;
    if (type !== undefined) path.types.add(type);
  };
  const visit = (names: string[], value: Item[string]): void => {
    note(names, false, Object.keys(value)[0] ?? '?');
    if ('M' in value && names.length < maxDepth)
      for (const [name, inner] of Object.entries(value.M)) visit([...names, name], inner);
  };
  for (const item of items)
    for (const [name, value] of Object.entries(item)) {
      visit([name], value);
      if ('L' in value && value.L.length > 0) note([name], true);
    }
  return [...seen.values()];
}
