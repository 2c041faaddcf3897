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
import { keepForUndo, sendNoted, type Kept } from '../../journal/keep';
import type { JournalPair } from '../../journal/journal-files';
import type { ItemTarget } from './item-access';
import { assertValid } from './validation';

/**
 * A failed condition carries the stored item (ALL_OLD): rows showing the item show that, so
 * the grid no longer disagrees with the conflict view. The failure still reaches the caller.
 */
export async function refreshOnConflict<T>(t: ItemTarget, key: Item, write: () => Promise<T>): Promise<T> {
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

/**
 * One editor write, journaled as a commit of one change so History lists it and undo puts it
 * back. The intent (the item as seen, what the write should leave) is on disk before the write
 * is sent; a refused write drops it, a lost answer leaves it for the journal to read, and an
 * answer replaces it with what `pairOf` makes of it.
 */
async function journaledWrite<T>(
  t: ItemTarget,
  reason: string,
  intent: JournalPair,
  send: () => Promise<T>,
  pairOf: (answer: T) => JournalPair,
): Promise<{ answer: T; kept: Kept }> {
  const journal = t.journal('commit', reason);
  let answer: T;
  try {
    answer = await sendNoted(journal, intent, send, pairOf);
  } catch (error) {
    await keepForUndo(journal);
    throw error;
  }
  return { answer, kept: await keepForUndo(journal) };
}

/** The put was conditioned on the key being free, so before it there was no item. */
export async function createItem(t: ItemTarget, item: Item): Promise<{ item: Item } & Kept> {
  assertWritable(t.connection);
  assertValid(t, item);
  const key = keyOf(item, t.info.keys);
  const pair = { key, before: null, after: item };
  const { kept } = await journaledWrite(
    t,
    'Created in the item editor',
    pair,
    () =>
      refreshOnConflict(t, item, () =>
        sendWrite(t.client, { operation: 'PutItem', input: planPut(target(t), item) }, 'create', {
          desired: item,
        }),
      ),
    () => pair,
  );
  await t.record([{ key, item }]);
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
  const { kept } = await journaledWrite(
    t,
    'Deleted in the item editor',
    { key: seenKey, before: expected, after: null },
    () =>
      refreshOnConflict(t, seenKey, () =>
        sendWrite(t.client, { operation: 'DeleteItem', input: request }, 'delete', { desired: null }),
      ),
    // No attributes: a retry found the item already gone, deleted by the first attempt, which
    // held the condition on the item as seen.
    ({ attributes }) => ({ key: seenKey, before: attributes ?? expected, after: null }),
  );
  await t.record([{ key: seenKey, item: null }]);
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
  // One pair whose `after` has the new key for a key change: its undo is one transaction over both keys.
  const intent = { key: seenKey, before: seen, after: desired };
  if (planned.kind === 'key-change') {
    const { kept } = await journaledWrite(
      t,
      'Key changed in the item editor',
      intent,
      () => refreshOnConflict(t, seenKey, () => commitOne(t, planned, token)),
      () => intent,
    );
    await t.record([
      { key: seenKey, item: null },
      { key: keyOf(desired, t.info.keys), item: desired },
    ]);
    return { item: desired, kind: 'key-change', coverage: planned.coverage, ...kept };
  }
  const request = planned.request;
  const { answer, kept } = await journaledWrite(
    t,
    'Saved in the item editor',
    intent,
    () => refreshOnConflict(t, seenKey, () => sendWrite(t.client, request, 'update', { desired })),
    ({ attributes }) => ({
      key: seenKey,
      before: attributes ? beforeUpdate(attributes, seen, desired) : seen,
      after: attributes ?? desired,
    }),
  );
  const stored = answer.attributes ?? desired;
  await t.record([{ key: seenKey, item: stored }]);
  return { item: stored, kind: 'update', coverage: planned.coverage, ...kept };
}
