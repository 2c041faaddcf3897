import type { Item } from '../../../shared/dynamo/attribute-value';
import { itemsEqual } from '../../../shared/dynamo/value-equality';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import type { WriteRequest } from '../../../shared/dynamo/write-requests';
import type { JournalPair } from '../../journal/journal-files';
import type { ItemTarget } from '../items/item-access';
import { sendWrite } from './send-write';

/** One conditional write planned elsewhere (an approved agent or MCP write), as the door sends it. */
export interface PlannedItemWrite {
  key: Item;
  /** The item as a consistent read found it when the write was planned (null: none). */
  seen: Item | null;
  /**
   * PutItem, UpdateItem or DeleteItem asking for ReturnValues ALL_OLD, and for the stored item
   * when its condition fails (ReturnValuesOnConditionCheckFailure ALL_OLD).
   */
  request: WriteRequest;
  kind: ChangeKind;
  /** What the write leaves, worked out from the item it replaced (null: none, or a delete). */
  after(before: Item | null): Item | null;
}

/**
 * Sends one write through the door: the connection checked as saved at this moment, the
 * conditional request sent, every view told what DynamoDB now holds. Returns the journal pair:
 * the whole item before (ALL_OLD; none returned means there was no item) and what the write left.
 * A failed condition throws as a conflict carrying the stored item, except when the stored item
 * is exactly what this write leaves from the item as planned: that is the SDK's retry meeting
 * its own first attempt, whose answer was lost. ALL_OLD of the retry would then be the write's
 * own result, so the item as planned, which the first attempt's condition held on, is kept.
 */
export async function writeOne(
  t: ItemTarget,
  write: PlannedItemWrite,
  signal?: AbortSignal,
): Promise<JournalPair> {
  await t.assertWritableNow();
  const desired = write.after(write.seen);
  const { attributes } = await sendWrite(t.client, write.request, write.kind, { desired, signal });
  const isOwnRetry =
    desired === null
      ? write.seen !== null && attributes === null
      : attributes !== null && itemsEqual(attributes, desired);
  const before = isOwnRetry ? write.seen : attributes;
  const pair = { key: write.key, before, after: write.after(before) };
  await t.record([{ key: pair.key, item: pair.after }]);
  return pair;
}
