import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { type AppError, AppFailure, ErrorCodes } from '../../../shared/errors';
import { toAppError } from '../../core/to-app-error';
import type { ChangeKind } from '../../../shared/dynamo/write-plan';
import { fromSdkItem } from '../marshal';

export const CONDITIONAL_FAILED = 'ConditionalCheckFailedException';

const UPDATE_CONFLICT =
  'Someone changed this item after you loaded it, so nothing was written. Compare their version with yours and choose.';

const CONFLICT_MESSAGES: Partial<Record<ChangeKind, string>> = {
  create:
    'An item with this key already exists, so nothing was written. The stored item is shown next to yours.',
  update: UPDATE_CONFLICT,
  delete:
    'The item changed (or is gone) since you loaded it, so it was not deleted. Review the stored item first.',
  'key-change':
    'The key change was not made: the old item changed since you loaded it, or an item with the new key already exists.',
};

export function conflictMessage(kind: ChangeKind): string {
  return CONFLICT_MESSAGES[kind] ?? UPDATE_CONFLICT;
}

export function storedItem(raw: unknown): Item | null {
  return raw && typeof raw === 'object' ? fromSdkItem(raw as Record<string, SdkValue>) : null;
}

export function isConditionalFailure(error: unknown): error is Error & { Item?: Record<string, SdkValue> } {
  return (error as { name?: string } | undefined)?.name === CONDITIONAL_FAILED;
}

/** How many times the SDK sent the request that ended so: more than one means a retry was sent. */
export function attemptsOf(error: unknown): number {
  return (error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1;
}

/**
 * A request that failed after it may have reached DynamoDB: the connection was reset or timed out
 * while the answer was awaited (the SDK's own retries used up). Such a write may have landed.
 */
export function answerMayBeLost(error: unknown): boolean {
  const { code, name, message } = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && ['ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
  if (name === 'TimeoutError' || name === 'RequestTimeout') return true;
  return typeof message === 'string' && /socket hang up/i.test(message);
}

/** A conflict keeps the AWS name as its code and carries the stored item in the tagged form. */
export function conflictFailure(kind: ChangeKind, current: Item | null): AppFailure {
  return new AppFailure(CONDITIONAL_FAILED, conflictMessage(kind), false, { current, kind });
}

/** Cancellation reason codes as DynamoDB sends them, in words. */
export function cancellationMessage(code: string | undefined, message?: string): string {
  switch (code) {
    case 'ConditionalCheckFailed':
      return 'This item changed since it was loaded (or its key is taken), so the whole transaction was cancelled.';
    case 'TransactionConflict':
      return 'Another request was changing this item at the same moment. Nothing was written; commit again.';
    case 'ThrottlingError':
    case 'ProvisionedThroughputExceeded':
      return 'DynamoDB throttled this item. Nothing was written; commit again in a moment.';
    case 'ItemCollectionSizeLimitExceeded':
      return 'This partition key already holds 10 GB, the limit for a table with a local index.';
    case 'ValidationError':
      return `DynamoDB refused this change as invalid: ${message ?? 'no detail given'}.`;
    case 'None':
    case undefined:
      return 'Not written because another change in the same transaction failed.';
    default:
      return message ? `${code}: ${message}` : code;
  }
}

/**
 * Errors that every item of a long write job would hit the same way: the job stops instead of
 * failing each item (bulk changes, undo, import, copy). A replaced client (ConnectionChanged)
 * refuses every write too.
 */
const JOB_FATAL = new Set<string>([
  ErrorCodes.readOnly,
  ErrorCodes.connectionChanged,
  ErrorCodes.credentialsExpired,
  'ExpiredTokenException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ResourceNotFoundException',
  'CredentialsProviderError',
  'ECONNREFUSED',
  'ENOTFOUND',
]);

export function isJobFatal(code: string): boolean {
  return JOB_FATAL.has(code);
}

/**
 * What one item's write was refused with, for the jobs that write item by item (copy, import,
 * bulk, undo): rethrows what stops the whole job (a fatal error, or any error once the job is
 * cancelled), returns the rest as data for the item's report (a conflict keeps its AWS name).
 */
export function itemRefusal(error: unknown, signal: AbortSignal): AppError {
  const appError = toAppError(error);
  if (isJobFatal(appError.code) || signal.aborted) throw error;
  return appError;
}
