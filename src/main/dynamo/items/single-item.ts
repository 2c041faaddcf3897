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
import { CONDITIONAL_FAILED } from '../writes/write-errors';
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

export async function createItem(t: ItemTarget, item: Item): Promise<Item> {
  assertWritable(t.connection);
  assertValid(t, item);
  await refreshOnConflict(t, item, () =>
    sendWrite(t.client, { operation: 'PutItem', input: planPut(target(t), item) }, 'create', {
      desired: item,
    }),
  );
  await t.record([{ key: keyOf(item, t.info.keys), item }]);
  return item;
}

export async function deleteItem(
  t: ItemTarget,
  key: Item,
  expected: Item,
  confirmTable?: string,
): Promise<boolean> {
  assertWritable(t.connection);
  assertConfirmed(t.connection, t.info.name, 'delete', 1, confirmTable);
  const seenKey = keyOf(expected, t.info.keys);
  if (!itemsEqual(seenKey, keyOf(key, t.info.keys))) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'The key does not match the item you saw; reload the item and try again.',
    );
  }
  const { request } = planDelete(target(t), expected);
  await refreshOnConflict(t, seenKey, () =>
    sendWrite(t.client, { operation: 'DeleteItem', input: request }, 'delete', { desired: null }),
  );
  await t.record([{ key: seenKey, item: null }]);
  return true;
}

export interface UpdateResult {
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
    return { item: desired, kind: 'key-change', coverage: planned.coverage };
  }
  const request = planned.request;
  const { attributes } = await refreshOnConflict(t, seenKey, () =>
    sendWrite(t.client, request, 'update', { desired }),
  );
  const stored = attributes ?? desired;
  await t.record([{ key: seenKey, item: stored }]);
  return { item: stored, kind: 'update', coverage: planned.coverage };
}
