import {
  type DynamoDBClient,
  PutItemCommand,
  type AttributeValue as SdkValue,
} from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../../shared/errors';
import { ExpressionContext } from '../../../shared/dynamo/expression-context';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { seenCondition } from '../../../shared/dynamo/seen-condition';
import { itemsEqual } from '../../../shared/dynamo/value-equality';
import type { ConflictPolicy } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { fromSdkItem, fromSdkValue, toSdkItem } from '../marshal';
import { withBackoff } from '../../core/retry';
import { answerMayBeLost, attemptsOf, isConditionalFailure } from './write-errors';

type SdkItem = Record<string, SdkValue>;

export type JournaledPutResult =
  { kind: 'written'; replaced: SdkItem | null; consumed?: number } | { kind: 'skipped' };

export interface JournaledPutOptions {
  client: DynamoDBClient;
  table: string;
  keys: KeySchema;
  policy: ConflictPolicy;
  signal: AbortSignal;
  capacity?: boolean;
  onThrottle?(): void;
  /** Before each send: the item it is conditioned to replace (null: the key free), for the journal. */
  announce?(replacing: SdkItem | null): Promise<void>;
}

export const CHANGED_WHILE_WRITING = 'ChangedWhileWriting';

/** Whether the policy may replace an item that is there: skip never; newer-wins with a version. */
function replaces(options: JournaledPutOptions, item: SdkItem): boolean {
  const { policy } = options;
  if (policy.policy === 'skip') return false;
  return policy.policy === 'overwrite' || ownValue(item, policy.attribute) !== undefined;
}

/** Sends whose answers were all lost (after the SDK's own retries) before the item is reported failed. */
const MAX_LOST_ANSWERS = 3;

/** Writes and reads per item at most: a change landing between two of them is met again. */
const ROUNDS = 3;

/** Equal as DynamoDB's `=` sees items (1.50 = 1.5, sets in any order). */
export function sameSdkItem(a: SdkItem, b: SdkItem): boolean {
  return itemsEqual(fromSdkItem(a), fromSdkItem(b));
}

/**
 * A put whose "before" goes into the undo journal (a journaled import or copy), safe against the
 * SDK's retry of a put whose answer was lost. A plain put with ReturnValues ALL_OLD would hand the
 * retry's ALL_OLD — the item the first attempt already wrote — to the journal, and undo would then
 * "restore" the imported item. So every put here is conditioned on what it replaces: first on the
 * key being free, and where an item is there (DynamoDB returns it with the refusal), on that item
 * as stored. A retried attempt that meets its own first attempt fails its condition on an item
 * equal to ours: that is counted written, with the "before" the first attempt's condition held.
 * The price is one refused conditional write per replaced item.
 */
export async function journaledPut(options: JournaledPutOptions, item: SdkItem): Promise<JournaledPutResult> {
  let stored: SdkItem | null = null;
  // Set once a send may have landed without an answer: our own item may be what we meet next.
  let resent = false;
  let lostAnswers = 0;
  for (let round = 1; ; round++) {
    const request = stored === null ? createOnly(options, item) : replacing(options, item, stored);
    try {
      await options.announce?.(stored);
      const out = await withBackoff(() => options.client.send(request), {
        signal: options.signal,
        onThrottle: () => options.onThrottle?.(),
      });
      const consumed = out.ConsumedCapacity?.CapacityUnits;
      return { kind: 'written', replaced: stored === null ? null : (out.Attributes ?? stored), consumed };
    } catch (error) {
      if (!isConditionalFailure(error)) {
        // The put is conditioned on what it replaces, so sending it again cannot apply it twice.
        if (!answerMayBeLost(error) || options.signal.aborted || ++lostAnswers > MAX_LOST_ANSWERS)
          throw error;
        resent = true;
        round--;
        continue;
      }
      const found = error.Item ?? null;
      if (found && (resent || attemptsOf(error) > 1) && sameSdkItem(found, item))
        return { kind: 'written', replaced: stored };
      if (found === null) {
        if (stored === null) throw error; // refused on a free key: nothing to read, nothing to retry
        stored = null;
      } else {
        if (!replaces(options, item)) return { kind: 'skipped' };
        // Newer-wins: the stored item did not change, so the version check refused the put.
        if (options.policy.policy === 'newer' && stored !== null && sameSdkItem(found, stored))
          return { kind: 'skipped' };
        stored = found;
      }
      if (round >= ROUNDS)
        throw new AppFailure(
          CHANGED_WHILE_WRITING,
          `This item changed ${ROUNDS} times while it was being written, so DynoTable left it as it is.`,
        );
    }
  }
}

function common(options: JournaledPutOptions, item: SdkItem) {
  return {
    TableName: options.table,
    Item: item,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    ...(options.capacity ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
  };
}

function createOnly(options: JournaledPutOptions, item: SdkItem): PutItemCommand {
  return new PutItemCommand({
    ...common(options, item),
    ConditionExpression: 'attribute_not_exists(#k)',
    ExpressionAttributeNames: { '#k': options.keys.partitionKey.name },
  });
}

/** A put that replaces `stored` only while it is as DynamoDB returned it (and, newer-wins, older). */
function replacing(options: JournaledPutOptions, item: SdkItem, stored: SdkItem): PutItemCommand {
  const ctx = new ExpressionContext();
  const seen = seenCondition(ctx, fromSdkItem(stored), [], []);
  let expression = seen.expression;
  const { policy } = options;
  const version = policy.policy === 'newer' ? ownValue(item, policy.attribute) : undefined;
  // As the unjournaled newer-wins put: only a stored item holding an older version is replaced.
  if (policy.policy === 'newer' && version)
    expression = `(${expression}) AND ${ctx.name(policy.attribute)} < ${ctx.value(fromSdkValue(version))}`;
  const fields = ctx.fields();
  return new PutItemCommand({
    ...common(options, item),
    ReturnValues: 'ALL_OLD',
    ConditionExpression: expression,
    ...(fields.ExpressionAttributeNames ? { ExpressionAttributeNames: fields.ExpressionAttributeNames } : {}),
    ...(fields.ExpressionAttributeValues
      ? { ExpressionAttributeValues: toSdkItem(fields.ExpressionAttributeValues) }
      : {}),
  });
}
