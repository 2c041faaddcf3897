import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { itemsEqual } from '../../../shared/dynamo/value-equality';
import { planChange, planDelete, planPut, type ChangeKind } from '../../../shared/dynamo/write-plan';
import type { ConditionCoverage } from '../../../shared/dynamo/seen-condition';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { fromSdkItem, toSdkItem } from '../marshal';
import { assertConfirmed, assertWritable } from '../writes/guards';
import { commitOne } from '../writes/commit';
import { sendWrite } from '../writes/send-write';
import { beforeUpdate } from '../writes/update-before';
import { CONDITIONAL_FAILED } from '../writes/write-errors';
import { keepForUndo, type Kept } from '../../journal/keep';
import type { JournalPair } from '../../journal/journal-files';
import type { ItemTarget } from './item-access';
import { assertValid } from './validation';

/**
 * A failed condition carries the stored item (ALL_OLD): rows showing the item show that, so
 * the grid no longer disagrees with the conflict view. The failure still reaches the caller.
 */
async function refreshOnConflict<T>(t: ItemTarget, key: Item, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      error instanceof AppFailure &&
      error.code === CONDITIONAL_FAILED &&
      error.details &&
      'current' in error.details
    ) {
      const current = (error.details.current as Item | null | undefined) ?? null;
      // A key change's failed put reports the item under the new key, not this one.
      if (error.details.action !== 'put') await t.record([{ key, item: current, isRefresh: true }]);
    }
    throw error;
  }
}

export async function getItem(
  target: ItemTarget,
  key: Item,
  consistent = false,
  signal?: AbortSignal,
): Promise<Item | null> {
  const response = await target.client.send(
    new GetItemCommand({
      TableName: target.info.name,
      Key: toSdkItem(keyOf(key, target.info.keys)),
      ConsistentRead: consistent,
    }),
    { abortSignal: signal },
  );
  return response.Item ? fromSdkItem(response.Item) : null;
}

function target(t: ItemTarget) {
  return { table: t.info.name, keys: t.info.keys };
}

/** The editor's write, journaled as a commit of one change so History lists it and undo puts it back. */
function keepEditorWrite(t: ItemTarget, reason: string, pair: JournalPair): Promise<Kept> {
  return keepForUndo(t.journal('commit', reason), [pair]);
}

/** The put was conditioned on the key being free, so before it there was no item. */
export async function createItem(t: ItemTarget, item: Item): Promise<{ item: Item } & Kept> {
  assertWritable(t.connection);
  assertValid(t, item);
  await refreshOnConflict(t, item, () =>
    sendWrite(t.client, { operation: 'PutItem', input: planPut(target(t), item) }, 'create', {
      desired: item,
    }),
  );
  const key = keyOf(item, t.info.keys);
  await t.record([{ key, item }]);
  const kept = await keepEditorWrite(t, 'Created in the item editor', { key, before: null, after: item });
  return { item, ...kept };
}

export async function deleteItem(
  t: ItemTarget,
  key: Item,
  expected: Item,
  confirmTable?: string,
): Promise<{ deleted: boolean } & Kept> {
  assertWritable(t.connection);
  assertConfirmed(t.connection, t.info.name, 'delete', 1, confirmTable);
  const seenKey = keyOf(expected, t.info.keys);
  if (!itemsEqual(seenKey, keyOf(key, t.info.keys))) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'The key does not match the item you saw; reload the item and try again.',
    );
  }
  // ALL_OLD: the journal keeps the whole item deleted, also attributes the condition did not cover.
  const request = { ...planDelete(target(t), expected).request, ReturnValues: 'ALL_OLD' as const };
  const { attributes } = await refreshOnConflict(t, seenKey, () =>
    sendWrite(t.client, { operation: 'DeleteItem', input: request }, 'delete', { desired: null }),
  );
  await t.record([{ key: seenKey, item: null }]);
  // No attributes: a retry found the item already gone, deleted by the first attempt, which held
  // the condition on the item as seen.
  const before = attributes ?? expected;
  const kept = await keepEditorWrite(t, 'Deleted in the item editor', { key: seenKey, before, after: null });
  return { deleted: true, ...kept };
}

export interface UpdateResult extends Kept {
  item: Item | null;
  kind: Exclude<ChangeKind, 'create' | 'delete'>;
  coverage?: ConditionCoverage;
}

/** Save from the editor: UpdateItem of the changes (or a key-change transaction), conditioned on what was seen. */
export async function updateItem(
  t: ItemTarget,
  seen: Item,
  desired: Item,
  token?: string,
): Promise<UpdateResult> {
  assertWritable(t.connection);
  assertValid(t, desired);
  const planned = planChange(target(t), { seen, desired }, token);
  if (planned.kind === 'none' || !planned.request) return { item: seen, kind: 'none' };
  if (planned.kind !== 'update' && planned.kind !== 'key-change') {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'An update needs both the item you saw and the edited item.',
    );
  }
  const seenKey = keyOf(seen, t.info.keys);
  if (planned.kind === 'key-change') {
    await refreshOnConflict(t, seenKey, () => commitOne(t, planned, token));
    await t.record([
      { key: seenKey, item: null },
      { key: keyOf(desired, t.info.keys), item: desired },
    ]);
    // One pair whose `after` has the new key: its undo is one transaction over both keys.
    const kept = await keepEditorWrite(t, 'Key changed in the item editor', {
      key: seenKey,
      before: seen,
      after: desired,
    });
    return { item: desired, kind: 'key-change', coverage: planned.coverage, ...kept };
  }
  const request = planned.request;
  const { attributes } = await refreshOnConflict(t, seenKey, () =>
    sendWrite(t.client, request, 'update', { desired }),
  );
  const stored = attributes ?? desired;
  await t.record([{ key: seenKey, item: stored }]);
  const before = attributes ? beforeUpdate(attributes, seen, desired) : seen;
  const kept = await keepEditorWrite(t, 'Saved in the item editor', { key: seenKey, before, after: stored });
  return { item: stored, kind: 'update', coverage: planned.coverage, ...kept };
}
