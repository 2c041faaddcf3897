import type { Item } from '../../../shared/dynamo/attribute-value';
import { indexKeyRoles, roleText } from '../../../shared/dynamo/key-model';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../shared/dynamo/value-equality';
import type { IndexInfo } from '../../../shared/ipc/tables';

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
