import type { Item } from '../../../shared/dynamo/attribute-value';
import type { JournalPair } from '../../journal/journal-files';

/**
 * What undo of one bulk-changed item puts back: the whole item before the write, which DynamoDB
 * returned (ALL_OLD of the delete or the update), so an attribute the read did not hold (a
 * projection) and the update removed comes back too. The read item stands in only if nothing
 * was returned.
 */
export function bulkUndoPair(key: Item, read: Item, before: Item | null, after: Item | null): JournalPair {
  return { key, before: before ?? read, after };
}
