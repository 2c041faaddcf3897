import type { Item } from '../../../shared/dynamo/attribute-value';
import { defineOwn, ownValue } from '../../../shared/dynamo/proto-keys';
import type { BulkAction } from '../../../shared/ipc/items';
import type { JournalPair } from '../../journal/journal-files';

/**
 * What undo of one bulk-changed item puts back. A delete returns the deleted item (ALL_OLD), so
 * that is exact. An update returns the item after it (ALL_NEW); the item before is that item
 * with each attribute the update touched as it was read. Not the read item whole: a projected
 * read holds only some attributes, and undo must not remove the others.
 */
export function bulkUndoPair(key: Item, read: Item, stored: Item | null, action: BulkAction): JournalPair {
  if (action.type === 'delete') return { key, before: stored ?? read, after: null };
  if (!stored) return { key, before: read, after: null };
  const touched = new Set([...action.set.map((s) => s.path[0]), ...action.remove.map((p) => p[0])]);
  const before: Item = Object.create(null) as Item;
  for (const name of Object.keys(stored)) {
    const value = touched.has(name) ? ownValue(read, name) : ownValue(stored, name);
    if (value) defineOwn(before, name, value);
  }
  for (const name of touched) {
    if (typeof name !== 'string' || Object.hasOwn(stored, name)) continue;
    const value = ownValue(read, name);
    if (value) defineOwn(before, name, value);
  }
  return { key, before, after: stored };
}
