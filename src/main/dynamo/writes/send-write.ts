import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { itemsEqual } from '../../../shared/dynamo/value-equality';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import type { WriteRequest } from '../../../shared/dynamo/write-requests';
import { sendRequest } from './sdk-requests';
import { conflictFailure, isConditionalFailure, storedItem } from './write-errors';

export interface SendOptions {
  signal?: AbortSignal;
  /** What the stored item should be after success, to recognise our own earlier attempt. */
  desired?: Item | null;
}

/**
 * Sends one planned write, retried only by the SDK (adaptive, five attempts): someone is waiting
 * on this save, and our own backoff on top multiplied those into 30 attempts over 80 seconds of
 * "Saving…" before the throttling sentence. A failed condition becomes a conflict carrying the stored item
 * (ALL_OLD), except when the stored item already is exactly what we meant to write: that is
 * our own attempt whose answer got lost, and reporting a conflict would only confuse.
 */
export async function sendWrite(
  client: DynamoDBClient,
  request: WriteRequest,
  kind: ChangeKind,
  options: SendOptions = {},
): Promise<{ attributes: Item | null }> {
  try {
    const response = await sendRequest(client, request, options.signal);
    return { attributes: storedItem(response.Attributes) };
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const current = storedItem(error.Item);
    if (options.desired !== undefined && sameOutcome(current, options.desired))
      return { attributes: current };
    throw conflictFailure(kind, current);
  }
}

function sameOutcome(current: Item | null, desired: Item | null): boolean {
  if (current === null || desired === null) return current === desired;
  return itemsEqual(current, desired);
}
