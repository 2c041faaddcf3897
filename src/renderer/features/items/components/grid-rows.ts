import type { Item } from '../../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import type { KeySchema } from '../../../../shared/ipc/tables';

/** An item's table key as text, to match grid rows with staged changes. */
export function rowKeyText(item: Item, keys: KeySchema): string {
  return JSON.stringify([
    ownValue(item, keys.partitionKey.name) ?? null,
    keys.sortKey ? (ownValue(item, keys.sortKey.name) ?? null) : null,
  ]);
}
