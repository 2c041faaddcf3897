import type { Item } from '../../../shared/dynamo/attribute-value';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import type { WriteRequest } from '../../../shared/dynamo/write-requests';
import type { JournalPair } from '../../journal/journal-files';
import type { ItemTarget } from '../items/item-access';
import { sendWrite } from './send-write';

/** One conditional write planned elsewhere (an approved agent or MCP write), as the door sends it. */
export interface PlannedItemWrite {
  key: Item;
  /** PutItem, UpdateItem or DeleteItem asking for ReturnValues ALL_OLD. */
  request: WriteRequest;
  kind: ChangeKind;
  /** What the write leaves, worked out from the item it replaced (null: none, or a delete). */
  after(before: Item | null): Item | null;
}

/**
 * Sends one write through the door: the connection checked as saved at this moment, the
 * conditional request sent, every view told what DynamoDB now holds. Returns the journal pair:
 * the whole item before (ALL_OLD; none returned means there was no item) and what the write left.
 * A failed condition throws as a conflict carrying the stored item, which the views are shown.
 */
export async function writeOne(
  t: ItemTarget,
  write: PlannedItemWrite,
  signal?: AbortSignal,
): Promise<JournalPair> {
  await t.assertWritableNow();
  const { attributes } = await sendWrite(t.client, write.request, write.kind, { signal });
  const pair = { key: write.key, before: attributes, after: write.after(attributes) };
  await t.record([{ key: pair.key, item: pair.after }]);
  return pair;
}
