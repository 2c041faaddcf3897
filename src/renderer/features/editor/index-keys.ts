import type { Item } from '../../../shared/dynamo/attribute-value';
import { partitionAttributes, sortAttributes } from '../../../shared/dynamo/key-model';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../shared/dynamo/value-equality';
import type { IndexInfo } from '../../../shared/ipc/tables';

/** Where one attribute sits in one index's key: `kind` attribute `position` of `count`. */
export interface IndexKeyRole {
  index: string;
  kind: 'partition' | 'sort';
  position: number;
  count: number;
}

/**
 * Every attribute that keys an index, with each index it keys and where: all the attributes of
 * a multi-attribute key, not only its first. A Map, since attribute names are data.
 */
export function indexKeyRoles(indexes: readonly IndexInfo[]): Map<string, IndexKeyRole[]> {
  const roles = new Map<string, IndexKeyRole[]>();
  for (const index of indexes)
    for (const [kind, attributes] of [
      ['partition', partitionAttributes(index.keys)],
      ['sort', sortAttributes(index.keys)],
    ] as const)
      attributes.forEach((attribute, i) => {
        const role = { index: index.name, kind, position: i + 1, count: attributes.length };
        roles.set(attribute.name, [...(roles.get(attribute.name) ?? []), role]);
      });
  return roles;
}

export function roleText(role: IndexKeyRole): string {
  const key = role.kind === 'partition' ? 'partition key' : 'sort key';
  return role.count === 1
    ? `${role.index} ${key}`
    : `${role.index} ${key}, ${role.position} of ${role.count}`;
}

/**
 * What saving the draft does to the item in each index whose key it changes: one sentence per
 * changed index-key attribute of an item already stored (a new item only joins its indexes).
 */
export function indexMoves(seen: Item | null, draft: Item, indexes: readonly IndexInfo[]): string[] {
  if (!seen) return [];
  const out: string[] = [];
  for (const [name, roles] of indexKeyRoles(indexes)) {
    const before = ownValue(seen, name);
    const after = ownValue(draft, name);
    if (before && after && valuesEqual(before, after)) continue;
    if (!before && !after) continue;
    const where = roles.map(roleText).join('; ');
    const names = [...new Set(roles.map((r) => r.index))].join(', ');
    out.push(
      !after
        ? `Removing "${name}" (${where}) takes the item out of ${names}.`
        : !before
          ? `Adding "${name}" (${where}) puts the item in ${names} once every key attribute there has a value.`
          : `Changing "${name}" (${where}) moves the item in ${names}.`,
    );
  }
  return out;
}
