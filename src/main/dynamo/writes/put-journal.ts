import type { Item } from '../../../shared/dynamo/attribute-value';
import { keyOf } from '../../../shared/dynamo/validate-item';
import type { KeySchema } from '../../../shared/ipc/tables';
import type { JournalPair } from '../../journal/journal-files';
import { fromSdkItem } from '../marshal';
import type { PutOutcome } from './put-items';

/**
 * The undo journal's view of puts made with keepReplaced: per item, what DynamoDB returned as
 * replaced (ALL_OLD; none: the key was free) and the item put, so undo deletes what the put
 * created and puts back what it replaced.
 */
export function replacedPairs<E>(
  outcome: PutOutcome<E>,
  keys: KeySchema,
  taggedOf: (entry: E) => Item,
): JournalPair[] {
  return outcome.written.map((entry, i) => {
    const after = taggedOf(entry);
    const old = outcome.replaced[i];
    return { key: keyOf(after, keys), before: old ? fromSdkItem(old) : null, after };
  });
}
