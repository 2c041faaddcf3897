import type { BulkAction } from '../ipc/items';
import type { AttributeValue, Item } from './attribute-value';
import { defineOwn } from './proto-keys';

type Segment = string | number;
type Container = Record<string, AttributeValue> | AttributeValue[];

/**
 * The item a bulk update left, worked out from the item before it (the update's ALL_OLD) the
 * way DynamoDB applies `SET path = :value` and `REMOVE path`: an update returns either the item
 * before or after, and undo needs the whole item before (a projected read does not hold an
 * attribute the update removed). The update succeeded, so every parent on a path exists; a SET
 * past a list's end appends, and several REMOVEs in one list name the indexes before any of them.
 */
export function applyBulkUpdate(before: Item, action: Extract<BulkAction, { type: 'update' }>): Item {
  const after = clone({ M: before }) as { M: Item };
  for (const { path, value } of action.set) {
    const parent = containerAt(after.M, path.slice(0, -1));
    const last = path[path.length - 1]!;
    if (Array.isArray(parent) && typeof last === 'number') {
      if (last < parent.length) parent[last] = clone(value);
      else parent.push(clone(value));
    } else if (parent && !Array.isArray(parent) && typeof last === 'string')
      defineOwn(parent, last, clone(value));
  }
  // List indexes are removed from the highest down, so each names the element it named before.
  const removes = [...action.remove].sort((a, b) => {
    const [x, y] = [a[a.length - 1], b[b.length - 1]];
    return typeof x === 'number' && typeof y === 'number' ? y - x : 0;
  });
  for (const path of removes) {
    const parent = containerAt(after.M, path.slice(0, -1));
    const last = path[path.length - 1]!;
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else if (parent && !Array.isArray(parent) && typeof last === 'string')
      Reflect.deleteProperty(parent, last);
  }
  return after.M;
}

function containerAt(item: Item, path: Segment[]): Container | undefined {
  let at: Container = item;
  for (const segment of path) {
    const next: AttributeValue | undefined = Array.isArray(at)
      ? typeof segment === 'number'
        ? at[segment]
        : undefined
      : typeof segment === 'string' && Object.hasOwn(at, segment)
        ? at[segment]
        : undefined;
    if (next && 'M' in next) at = next.M;
    else if (next && 'L' in next) at = next.L;
    else return undefined;
  }
  return at;
}

/** A deep copy that keeps `__proto__` and friends as own names. */
function clone(value: AttributeValue): AttributeValue {
  if ('M' in value) {
    const map = Object.create(null) as Record<string, AttributeValue>;
    for (const [name, inner] of Object.entries(value.M)) defineOwn(map, name, clone(inner));
    return { M: map };
  }
  if ('L' in value) return { L: value.L.map(clone) };
  return value;
}
