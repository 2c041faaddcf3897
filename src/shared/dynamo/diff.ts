import type { AttributeValue, Item } from './attribute-value';
import { valuesEqual } from './value-equality';
import { defineOwn, ownValue } from './proto-keys';

export interface AttributeChange {
  name: string;
  kind: 'added' | 'removed' | 'changed';
  before?: AttributeValue;
  after?: AttributeValue;
}

/** Top-level attribute differences from `before` to `after`, in a stable order (before's, then new). */
export function diffItems(before: Item, after: Item): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const [name, old] of Object.entries(before)) {
    const next = ownValue(after, name);
    if (next === undefined) changes.push({ name, kind: 'removed', before: old });
    else if (!valuesEqual(old, next)) changes.push({ name, kind: 'changed', before: old, after: next });
  }
  for (const [name, next] of Object.entries(after)) {
    if (ownValue(before, name) === undefined) changes.push({ name, kind: 'added', after: next });
  }
  return changes;
}

/** `a` and `b` hold the same value, or both none, under each of the names. */
export function sameOn(a: Item, b: Item, names: readonly string[]): boolean {
  return names.every((name) => {
    const [x, y] = [ownValue(a, name), ownValue(b, name)];
    return x === undefined || y === undefined ? x === y : valuesEqual(x, y);
  });
}

/** `base` with the named attributes as `from` holds them (absent where `from` has none). */
export function withNamesOf(base: Item, from: Item, names: readonly string[]): Item {
  const out = Object.create(null) as Item;
  for (const name of Object.keys(base)) defineOwn(out, name, base[name]!);
  for (const name of names) {
    const value = ownValue(from, name);
    if (value === undefined) Reflect.deleteProperty(out, name);
    else defineOwn(out, name, value);
  }
  return out;
}

export interface ConflictView {
  /** What other writers changed since the user loaded the item. */
  theirs: AttributeChange[];
  /** What the user changed. */
  mine: AttributeChange[];
  /** Attributes both sides changed, to different values: the ones that need a decision. */
  overlapping: string[];
}

/** Three-way comparison for the conflict view: seen (loaded), current (stored now), mine (edited). */
export function compareConflict(seen: Item, current: Item | null, mine: Item): ConflictView {
  const theirs = current
    ? diffItems(seen, current)
    : Object.keys(seen).map((name) => ({ name, kind: 'removed' as const, before: ownValue(seen, name) }));
  const own = diffItems(seen, mine);
  const touched = new Set(theirs.map((c) => c.name));
  const overlapping = own
    .filter((c) => touched.has(c.name))
    .filter((c) => {
      const stored = current ? ownValue(current, c.name) : undefined;
      const wanted = ownValue(mine, c.name);
      if (!stored || !wanted) return stored !== wanted;
      return !valuesEqual(stored, wanted);
    })
    .map((c) => c.name);
  return { theirs, mine: own, overlapping };
}

/** Applies the user's changes onto the current item: the "keep theirs, add mine" resolution. */
export function rebaseChanges(current: Item, mine: AttributeChange[]): Item {
  const removed = new Set(mine.filter((c) => c.kind === 'removed').map((c) => c.name));
  const entries = Object.entries(current).filter(([name]) => !removed.has(name));
  for (const change of mine) if (change.after) entries.push([change.name, change.after]);
  // fromEntries defines properties, so an attribute named "__proto__" stays an attribute.
  return Object.fromEntries(entries);
}
