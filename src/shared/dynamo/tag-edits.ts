import type { Tag } from './table-definition';

/**
 * The tags change that turns the table's current tags into the edited list: tags new or with a
 * new value are set, current keys no longer listed are removed, unchanged ones are not sent.
 * Empty rows are not tags.
 */
export function tagEdits(current: readonly Tag[], edited: readonly Tag[]): { set: Tag[]; remove: string[] } {
  const now = new Map(current.map((t) => [t.key, t.value]));
  const kept = edited.filter((t) => t.key !== '' || t.value !== '');
  const listed = new Set(kept.map((t) => t.key));
  return {
    set: kept.filter((t) => now.get(t.key) !== t.value),
    remove: current.filter((t) => !listed.has(t.key)).map((t) => t.key),
  };
}
