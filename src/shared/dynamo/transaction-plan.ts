import type { AttributeValue, Item } from './attribute-value';
import { itemSize, valueSize } from './item-size';
import type { TransactAction, TransactRequest } from './write-requests';

/** TransactWriteItems holds at most 100 actions and 4 MB in total. */
export const MAX_TRANSACTION_ACTIONS = 100;
export const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024;

function valuesSize(values: Item | undefined): number {
  return values ? Object.values(values).reduce((sum: number, v: AttributeValue) => sum + valueSize(v), 0) : 0;
}

/** An upper bound of what an action adds to the transaction's size. */
export function actionSize(action: TransactAction): number {
  if ('Put' in action) return itemSize(action.Put.Item) + valuesSize(action.Put.ExpressionAttributeValues);
  if ('Update' in action)
    return itemSize(action.Update.Key) + valuesSize(action.Update.ExpressionAttributeValues);
  return itemSize(action.Delete.Key) + valuesSize(action.Delete.ExpressionAttributeValues);
}

export interface TransactionBatch {
  request: TransactRequest;
  /** For each action of the batch, the index of the staged change it belongs to. */
  owners: number[];
}

/**
 * Splits staged changes into transactions of at most 100 actions and 4 MB, never splitting one
 * change (a key change's delete and put stay together). Batch i uses `${token}-${i}`, so the
 * same staged list retried with the same token reproduces the same requests and DynamoDB does
 * not apply any batch twice.
 */
export function splitTransactions(changes: TransactAction[][], token: string): TransactionBatch[] {
  const batches: TransactionBatch[] = [];
  let actions: TransactAction[] = [];
  let owners: number[] = [];
  let bytes = 0;
  const flush = (): void => {
    if (actions.length === 0) return;
    batches.push({
      request: { TransactItems: actions, ClientRequestToken: `${token}-${batches.length}` },
      owners,
    });
    actions = [];
    owners = [];
    bytes = 0;
  };
  changes.forEach((changeActions, owner) => {
    const size = changeActions.reduce((sum, a) => sum + actionSize(a), 0);
    if (
      actions.length + changeActions.length > MAX_TRANSACTION_ACTIONS ||
      bytes + size > MAX_TRANSACTION_BYTES
    )
      flush();
    actions.push(...changeActions);
    owners.push(...changeActions.map(() => owner));
    bytes += size;
  });
  flush();
  return batches;
}
