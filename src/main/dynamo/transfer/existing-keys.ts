import {
  BatchGetItemCommand,
  type AttributeValue as SdkValue,
  type BatchGetItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { AppFailure } from '../../../shared/errors';
import type { ItemTarget } from '../items/item-access';
import { fromSdkItem, toSdkItem } from '../marshal';

/** A key as text, for sets of keys (attribute order does not matter). */
export function keyText(key: Item): string {
  return JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const MAX_ROUNDS = 8;

/**
 * The stored items under these items' keys, by key text. BatchGetItem may leave keys unprocessed
 * under load; those are retried with backoff a bounded number of times.
 */
export async function storedItems(
  t: ItemTarget,
  items: Item[],
  signal: AbortSignal | undefined,
  consistent = false,
): Promise<Map<string, Item>> {
  const table = t.info.name;
  const found = new Map<string, Item>();
  for (let i = 0; i < items.length; i += 100) {
    const unique = new Map(
      items.slice(i, i + 100).map((item) => [keyText(keyOf(item, t.info.keys)), keyOf(item, t.info.keys)]),
    );
    let pending: Record<string, SdkValue>[] | undefined = [...unique.values()].map(toSdkItem);
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) {
        throw new AppFailure(
          'ProvisionedThroughputExceededException',
          'DynamoDB kept answering "unprocessed" while reading items by key; the table is throttling. Try again later.',
          true,
        );
      }
      if (round > 0) await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** round)));
      const response: BatchGetItemCommandOutput = await t.client.send(
        new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } }),
        { abortSignal: signal },
      );
      for (const stored of response.Responses?.[table] ?? []) {
        const item = fromSdkItem(stored);
        found.set(keyText(keyOf(item, t.info.keys)), item);
      }
      pending = response.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

/** Which of these items' keys exist already, for a dry run's "would be skipped". */
export async function existingKeys(t: ItemTarget, items: Item[], signal: AbortSignal): Promise<Set<string>> {
  return new Set((await storedItems(t, items, signal)).keys());
}
