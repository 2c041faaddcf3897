import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { sameOn } from '../../../shared/dynamo/diff';
import { itemsEqual } from '../../../shared/dynamo/value-equality';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import type { WriteRequest } from '../../../shared/dynamo/write-requests';
import { sendRequest } from './sdk-requests';
import { attemptsOf, conflictFailure, isConditionalFailure, storedItem } from './write-errors';

export interface SendOptions {
  signal?: AbortSignal;
  /** What the stored item should be after success, to recognise our own earlier attempt. */
  desired?: Item | null;
  /**
   * Compare `desired` only on these attributes, and only when the SDK sent the request again: an
   * update conditioned on the attributes it touches leaves the rest of the item as anyone wrote it,
   * so its first attempt is told by those attributes alone.
   */
  touched?: readonly string[];
}

export interface SendAnswer {
  /** ALL_OLD of the request, or the stored item when it was recognised as our own earlier attempt. */
  attributes: Item | null;
  /** A failed condition met what our own earlier attempt (its answer lost) left: `attributes` is that. */
  isOwnRetry?: true;
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
): Promise<SendAnswer> {
  try {
    const response = await sendRequest(client, request, options.signal);
    return { attributes: storedItem(response.Attributes) };
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const current = storedItem(error.Item);
    if (isOwnAttempt(current, options, attemptsOf(error))) return { attributes: current, isOwnRetry: true };
    throw conflictFailure(kind, current);
  }
}

function isOwnAttempt(current: Item | null, { desired, touched }: SendOptions, attempts: number): boolean {
  if (desired === undefined) return false;
  if (current === null || desired === null) return current === desired;
  if (touched) return attempts > 1 && sameOn(current, desired, touched);
  return itemsEqual(current, desired);
}
