import type { Item } from '../../../shared/dynamo/attribute-value';
import { applyBulkUpdate } from '../../../shared/dynamo/bulk-apply';
import { planBulkRequest, touchedNames, type BulkTarget } from '../../../shared/dynamo/bulk-plan';
import { sameOn, withNamesOf } from '../../../shared/dynamo/diff';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { valuesEqual } from '../../../shared/dynamo/value-equality';
import type { BulkAction } from '../../../shared/ipc/items';
import type { ItemTarget } from '../items/item-access';
import { getItem } from '../items/single-item';
import { withBackoff } from '../../core/retry';
import { sendRequest } from './sdk-requests';
import { attemptsOf, conflictFailure, isConditionalFailure, storedItem } from './write-errors';

/** What one journaled bulk write did: the whole item before it and what it left (null: deleted). */
export interface BulkItemWrite {
  before: Item;
  after: Item | null;
}

/** Reads and writes per item at most: a change landing between the read and the write is re-read. */
const ROUNDS = 3;

/** Every attribute `read` holds has the same value in `stored` (the seen condition, checked here). */
function holds(stored: Item, read: Item): boolean {
  return Object.keys(read).every((name) => {
    const mine = ownValue(read, name);
    const theirs = ownValue(stored, name);
    return mine !== undefined && theirs !== undefined && valuesEqual(mine, theirs);
  });
}

/**
 * One bulk write whose "before" goes into the undo journal. The item is first read consistently
 * and the write conditioned on it (planBulkRequest's guard), so the SDK's retry of a write whose
 * answer was lost cannot apply a second time: it fails its condition, and DynamoDB returns the
 * stored item. When that retry's stored item holds, in every attribute the update touches, what
 * our write makes of the item as read, it was our own first attempt: the journal keeps the stored
 * item with those attributes as the read found them (the first attempt's condition held them so),
 * never the retry's ALL_OLD, which would already hold the bulk's new values. A change by someone
 * else between the read and the write fails the condition on the first attempt and the item is
 * read again.
 */
export async function writeBulkItem(
  t: ItemTarget,
  read: Item,
  action: BulkAction,
  conditionOnSeen: boolean,
  signal: AbortSignal,
  /** Told before each send what the write should do, so a job stopped meanwhile still knows. */
  announce?: (write: BulkItemWrite) => Promise<void>,
): Promise<BulkItemWrite> {
  const target: BulkTarget = { table: t.info.name, keys: t.info.keys };
  const kind = action.type === 'delete' ? 'delete' : 'update';
  const touched = touchedNames(action);
  let current = await withBackoff(() => getItem(t, keyOf(read, t.info.keys), true, signal), { signal });
  for (let round = 1; ; round++) {
    if (current === null || (conditionOnSeen && !holds(current, read))) throw conflictFailure(kind, current);
    const guard: Item = current;
    const request = planBulkRequest(target, read, action, conditionOnSeen, {
      returnDeleted: true,
      guard,
    });
    await announce?.({
      before: guard,
      after: action.type === 'delete' ? null : applyBulkUpdate(guard, action),
    });
    try {
      // The cancel does not abort a write in flight: cut off after DynamoDB applied it, the item
      // would be changed without being journaled, counted or told to the grids.
      const response = await withBackoff(() => sendRequest(t.client, request), { signal });
      const before = storedItem(response.Attributes) ?? guard;
      return { before, after: action.type === 'delete' ? null : applyBulkUpdate(before, action) };
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
      const stored = storedItem(error.Item);
      if (attemptsOf(error) > 1) {
        // Only a retried request can meet its own earlier attempt.
        if (action.type === 'delete' && stored === null) return { before: guard, after: null };
        if (action.type === 'update' && stored && sameOn(stored, applyBulkUpdate(guard, action), touched))
          return { before: withNamesOf(stored, guard, touched), after: stored };
      }
      if (round >= ROUNDS) throw conflictFailure(kind, stored);
      current = stored;
    }
  }
}
