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
import type { ItemTarget } from './item-access';
import { assertValid } from './validation';

export async function getItem(target: ItemTarget, key: Item, consistent = false): Promise<Item | null> {
  const response = await target.client.send(
    new GetItemCommand({
      TableName: target.info.table,
      Key: toSdkItem(keyOf(key, target.info.keys)),
      ConsistentRead: consistent,
    }),
  );
  return response.Item ? fromSdkItem(response.Item) : null;
}

function target(t: ItemTarget) {
  return { table: t.info.table, keys: t.info.keys };
}

export async function createItem(t: ItemTarget, item: Item): Promise<Item> {
  assertWritable(t.connection);
  assertValid(t, item);
  await sendWrite(t.client, { operation: 'PutItem', input: planPut(target(t), item) }, 'create', {
    desired: item,
  });
  return item;
}

export async function deleteItem(
  t: ItemTarget,
  key: Item,
  expected: Item,
  confirmTable?: string,
): Promise<boolean> {
  assertWritable(t.connection);
  assertConfirmed(t.connection, t.info.table, 'delete', 1, confirmTable);
  const seenKey = keyOf(expected, t.info.keys);
  if (!itemsEqual(seenKey, keyOf(key, t.info.keys))) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'The key does not match the item you saw; reload the item and try again.',
    );
  }
  const { request } = planDelete(target(t), expected);
  await sendWrite(t.client, { operation: 'DeleteItem', input: request }, 'delete', { desired: null });
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
  if (planned.kind === 'key-change') {
    await commitOne(t, planned, token);
    return { item: desired, kind: 'key-change', coverage: planned.coverage };
  }
  const { attributes } = await sendWrite(t.client, planned.request, 'update', { desired });
  return { item: attributes ?? desired, kind: 'update', coverage: planned.coverage };
}
