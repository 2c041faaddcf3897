import type { Item } from '../../../shared/dynamo/attribute-value';
import { withNamesOf } from '../../../shared/dynamo/diff';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import type { WriteRequest } from '../../../shared/dynamo/write-requests';
import type { JournalPair, JournalWriter } from '../../journal/journal-files';
import { sendNoted } from '../../journal/keep';
import type { ItemTarget } from '../items/item-access';
import { refreshOnConflict } from '../items/single-item';
import { sendWrite, type SendAnswer } from './send-write';

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
  /**
   * An update's attributes (what it sets or removes), on which alone it is conditioned: the rest of
   * the item may change while the card waits. Absent for a put or a delete, conditioned on the
   * whole item as seen.
   */
  touched?: string[];
  /** What the write leaves, worked out from the item it replaced (null: none, or a delete). */
  after(before: Item | null): Item | null;
}

/**
 * The journal line of an answer. Normally the whole item before is the request's ALL_OLD (none
 * returned: there was no item). When the SDK's retry met our own first attempt (its answer lost),
 * the retry's ALL_OLD is already the write's result, so the line keeps the item as planned, which
 * the first attempt's condition held: whole for a put or a delete, and for an update the stored
 * item with the touched attributes as seen.
 */
function pairOf(write: PlannedItemWrite, { attributes, isOwnRetry }: SendAnswer): JournalPair {
  const { key, seen, touched } = write;
  if (!isOwnRetry) return { key, before: attributes, after: write.after(attributes) };
  if (attributes === null) return { key, before: seen, after: null };
  return { key, before: touched && seen ? withNamesOf(attributes, seen, touched) : seen, after: attributes };
}

/**
 * Sends one write through the door under the caller's journal entry: the connection checked as
 * saved at this moment, the intent (the item as seen, what the write should leave) noted before
 * the conditional request goes out, every view told what DynamoDB now holds (after a refusal,
 * what it found stored). The request is conditioned on the item as seen, so the SDK's retry of a
 * write whose answer was lost fails its condition instead of applying twice; a send that throws
 * (every answer lost) leaves the intent for the entry's `finish` to settle by reading the item.
 */
export async function writeOne(
  t: ItemTarget,
  write: PlannedItemWrite,
  journal: JournalWriter,
): Promise<JournalPair> {
  await t.assertWritableNow();
  const desired = write.after(write.seen);
  const answer = await refreshOnConflict(t, write.key, () =>
    sendNoted(
      journal,
      { key: write.key, before: write.seen, after: desired },
      // No abort signal: a write cut off after DynamoDB applied it would reach no view.
      () => sendWrite(t.client, write.request, write.kind, { desired, touched: write.touched }),
      (sent) => pairOf(write, sent),
    ),
  );
  const pair = pairOf(write, answer);
  await t.record([{ key: pair.key, item: pair.after }]);
  return pair;
}
