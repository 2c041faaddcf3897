import type { CopyMapping } from '../ipc/copy';
import type { KeySchema } from '../ipc/tables';
import { defineOwn } from './proto-keys';

/** The part of an attribute value the mapping reads: works on the tagged form and on the SDK's alike. */
type Value = { S?: unknown } & object;

export interface ItemMapper {
  /** The copied item: prefixes rewritten, attributes dropped and renamed. The input is not changed. */
  map<V extends Value>(item: Record<string, V>): Record<string, V>;
  /** The name an attribute of the source has in the target, or undefined when it is dropped. */
  nameOf(sourceName: string): string | undefined;
  /** True when the mapping changes nothing, so items can go through untouched. */
  isIdentity: boolean;
}

/**
 * Compiles a copy's key mapping. Order: prefixes are matched on the source's values and names,
 * then attributes are dropped, then renamed, so every rule names attributes as the source has them.
 * Maps and Sets only: attribute names are data (`__proto__`, `constructor`).
 */
export function compileMapping(mapping: CopyMapping, sourceKeyAttributes: string[]): ItemMapper {
  const drop = new Set(mapping.drop);
  const rename = new Map(mapping.rename.map((r) => [r.from, r.to]));
  const prefixes = mapping.prefixes.map((p) => ({
    from: p.from,
    to: p.to,
    attributes: new Set(p.attributes && p.attributes.length > 0 ? p.attributes : sourceKeyAttributes),
  }));
  const isIdentity = drop.size === 0 && rename.size === 0 && prefixes.length === 0;
  const nameOf = (name: string): string | undefined =>
    drop.has(name) ? undefined : (rename.get(name) ?? name);

  const rewrite = <V extends Value>(name: string, value: V): V => {
    if (typeof value.S !== 'string') return value;
    for (const p of prefixes) {
      if (p.attributes.has(name) && value.S.startsWith(p.from))
        return { ...value, S: p.to + value.S.slice(p.from.length) };
    }
    return value;
  };

  return {
    isIdentity,
    nameOf,
    map<V extends Value>(item: Record<string, V>): Record<string, V> {
      if (isIdentity) return item;
      const out: Record<string, V> = {};
      for (const [name, value] of Object.entries(item)) {
        const target = nameOf(name);
        if (target !== undefined) defineOwn(out, target, rewrite(name, value));
      }
      return out;
    },
  };
}

/**
 * Why a mapping cannot work for this source, in a sentence: it drops a key, or makes two
 * attributes one name (a renamed attribute meeting one of the same name would lose a value).
 */
export function mappingProblem(mapping: CopyMapping, sourceKeys: KeySchema): string | undefined {
  const keys = [sourceKeys.partitionKey.name, ...(sourceKeys.sortKey ? [sourceKeys.sortKey.name] : [])];
  for (const key of keys)
    if (mapping.drop.includes(key))
      return `The mapping drops "${key}", a key of the source table: the copied items would have no key.`;
  const targets = new Map<string, string>();
  for (const r of mapping.rename) {
    const earlier = targets.get(r.to);
    if (earlier !== undefined)
      return `The mapping renames both "${earlier}" and "${r.from}" to "${r.to}": one value would be lost.`;
    targets.set(r.to, r.from);
  }
  for (const p of mapping.prefixes)
    if (p.from === p.to) return `The prefix rewrite "${p.from}" → "${p.to}" changes nothing.`;
  return undefined;
}

/**
 * Whether the target's keys take the mapped items: the same key names (after renames) and types.
 * Returns the mismatch in a sentence, naming both sides, or undefined when compatible.
 */
export function keyMismatch(
  source: KeySchema,
  target: KeySchema,
  mapper: Pick<ItemMapper, 'nameOf'>,
  targetTable: string,
): string | undefined {
  const describe = (k: { name: string; type: string } | undefined): string =>
    k ? `"${k.name}" (${k.type})` : 'none';
  const mapped = (k: { name: string; type: string } | undefined) =>
    k ? { name: mapper.nameOf(k.name) ?? k.name, type: k.type } : undefined;
  const pairs = [
    ['partition key', mapped(source.partitionKey), target.partitionKey],
    ['sort key', mapped(source.sortKey), target.sortKey],
  ] as const;
  for (const [what, from, to] of pairs) {
    if (from?.name === to?.name && from?.type === to?.type) continue;
    return `The table ${targetTable} cannot take these items: its ${what} is ${describe(to)}, the copied items' ${what} is ${describe(from)}.`;
  }
  return undefined;
}
