import { z } from 'zod';
import { type AppError, AppFailure, ErrorCodes } from '../../shared/errors';
import { fileError } from './file-errors';
import { isRetryable } from './retry';
import { zodSentence } from './zod-sentence';

const EXPIRED = new Set([
  'ExpiredTokenException',
  'ExpiredToken',
  'TokenRefreshRequired',
  'UnauthorizedException',
  'InvalidGrantException',
]);

/** Sentences a person understands, keyed by the AWS error name (which stays the code). */
const MESSAGES: Record<string, string> = {
  ConditionalCheckFailedException:
    'The item changed since you loaded it (or the condition no longer holds), so nothing was written.',
  ProvisionedThroughputExceededException:
    'The table is throttling requests: its provisioned read or write capacity is used up. DynoTable retried with backoff; try again shortly or lower the rate.',
  ThrottlingException:
    'AWS is throttling requests right now. DynoTable retried with backoff; try again shortly.',
  RequestLimitExceeded: 'The account is over its DynamoDB request limit right now. Try again shortly.',
  ResourceNotFoundException: 'The table or index does not exist in this region (or you cannot see it).',
  ResourceInUseException: 'The table is being created, updated or deleted; wait until it is ACTIVE.',
  AccessDeniedException:
    'Your credentials are not allowed to do this. Check the IAM policy of this profile or role.',
  UnrecognizedClientException:
    'AWS did not recognise these credentials: the access key may be wrong, deleted, or for another partition.',
  InvalidSignatureException: 'AWS rejected the request signature: the secret access key is probably wrong.',
  ExpiredTokenException:
    'Your AWS session has expired. Sign in again (for SSO: "Sign in again"), then retry.',
  TransactionCanceledException:
    'The transaction was cancelled; nothing in it was written. See the reason on each item.',
  TransactionConflictException: 'Another transaction was changing the same item; nothing was written. Retry.',
  ItemCollectionSizeLimitExceededException:
    'This partition key already holds 10 GB (the limit with a local index).',
  ValidationException: 'DynamoDB rejected the request as invalid.',
  CredentialsProviderError: 'No usable AWS credentials were found for this connection.',
  // STS (query protocol) spells these differently from DynamoDB.
  InvalidClientTokenId:
    'AWS did not recognise these credentials: the access key may be wrong, deleted, or for another partition.',
  SignatureDoesNotMatch: 'AWS rejected the request signature: the secret access key is probably wrong.',
  ExpiredToken: 'Your AWS session has expired. Sign in again (for SSO: "Sign in again"), then retry.',
  TimeoutError: 'DynamoDB did not answer in time. Check the network connection, VPN or proxy, then retry.',
};

function awsName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { name?: unknown; $metadata?: unknown; code?: unknown };
  if (typeof e.name === 'string' && (e.$metadata !== undefined || e.name in MESSAGES)) return e.name;
  return undefined;
}

function isSsoExpiry(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /sso.*(expired|refresh)|token.*(is expired|has expired)|sso session|session token not found or invalid/i.test(
    message,
  );
}

function isNetwork(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(code)
  )
    return code;
  return undefined;
}

/** AWS messages often stop without a full stop (or with a stray ';'); ours are sentences. */
function sentence(text: string): string {
  const trimmed = text.trim().replace(/[;,:\s]+$/, '');
  return /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Keeps error identity: AWS names stay codes, our failures keep theirs, nothing becomes a bare string. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppFailure) {
    return { code: error.code, message: error.message, retryable: error.retryable, details: error.details };
  }
  if (error instanceof z.ZodError) {
    return {
      code: ErrorCodes.invalidInput,
      message: zodSentence(error).message,
      retryable: false,
      details: { issues: error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    };
  }
  const file = fileError(error);
  if (file) return file;
  const network = isNetwork(error);
  if (network) {
    return {
      code: network,
      message:
        network === 'ECONNREFUSED'
          ? 'Could not reach DynamoDB: the connection was refused. If this is DynamoDB Local, it is not running.'
          : 'Could not reach DynamoDB: check the network, the region and the endpoint.',
      retryable: true,
    };
  }
  const raw = error instanceof Error ? error.message : String(error);
  // Before the AWS names: the SDK's retry step adds $metadata (its attempts) to any error that
  // passes it, so a body read in our middleware would otherwise come out as an AWS error.
  if (error instanceof Error && error.name === 'WireFormatError') {
    return {
      code: ErrorCodes.unexpectedResponse,
      message: `DynamoDB's answer could not be read, so nothing of it was used. ${sentence(raw)} Try again; a scan resumes from its last checkpoint.`,
      retryable: true,
    };
  }
  const name = awsName(error);
  // DynamoDB's own ExpiredTokenException ("The security token included in the request is
  // expired") reads like an SSO expiry, but the service named it: keep that name as the code.
  const expired = name !== 'ExpiredTokenException' && name !== 'ExpiredToken' && isSsoExpiry(error);
  if (name === 'CredentialsProviderError' || expired) {
    return {
      code: expired ? ErrorCodes.credentialsExpired : 'CredentialsProviderError',
      message: expired
        ? 'Your AWS SSO session has expired. Choose "Sign in again"; your open tabs stay as they are.'
        : `${MESSAGES.CredentialsProviderError} ${raw}`,
      retryable: false,
      details: { canSignIn: expired, awsMessage: raw },
    };
  }
  if (name) {
    const base = MESSAGES[name];
    const retryable =
      isRetryable(error) ||
      (error as { $retryable?: unknown }).$retryable !== undefined ||
      name === 'TimeoutError';
    const details: Record<string, unknown> = { awsMessage: raw };
    const reasons = (error as { CancellationReasons?: unknown }).CancellationReasons;
    if (reasons) details.cancellationReasons = reasons;
    const item = (error as { Item?: unknown }).Item;
    if (item) details.item = item;
    if (EXPIRED.has(name)) details.canSignIn = true;
    return {
      code: name,
      message: sentence(base ? (name === 'ValidationException' ? `${base} ${raw}` : base) : raw),
      retryable,
      details,
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { code: ErrorCodes.cancelled, message: 'Cancelled.', retryable: false };
  }
  return {
    code: ErrorCodes.internal,
    message: `Something went wrong inside DynoTable: ${raw}`,
    retryable: false,
  };
}
