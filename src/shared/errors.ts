import { z } from 'zod';

/**
 * Errors are data. `code` keeps the AWS error name (ConditionalCheckFailedException,
 * ProvisionedThroughputExceededException, ExpiredTokenException, ...) so the UI can tell a
 * conflict from throttling from an expired credential; our own codes are PascalCase nouns.
 */
export const appErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AppError = z.infer<typeof appErrorSchema>;

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Codes of our own, next to the AWS names that pass through unchanged. */
export const ErrorCodes = {
  invalidInput: 'InvalidInput',
  readOnly: 'ReadOnlyConnection',
  /** A write meant for a connection whose settings changed (read-only, keys, endpoint) meanwhile. */
  connectionChanged: 'ConnectionChanged',
  notFound: 'NotFound',
  forbidden: 'Forbidden',
  cancelled: 'Cancelled',
  unknownChannel: 'UnknownChannel',
  connectionFailed: 'ConnectionFailed',
  credentialsExpired: 'CredentialsExpired',
  mfaCodeRequired: 'MfaCodeRequired',
  encryptionUnavailable: 'EncryptionUnavailable',
  connectionsFileCorrupt: 'ConnectionsFileCorrupt',
  /** A file in the data folder could not be read; it was renamed and kept, and the message says where. */
  dataFileSetAside: 'DataFileSetAside',
  storedKeysUnreadable: 'StoredKeysUnreadable',
  javaMissing: 'JavaMissing',
  fileNotFound: 'FileNotFound',
  /** A file a stopped job read (an import's) is not the same file any more: resuming would mix two. */
  fileChanged: 'FileChanged',
  notAFile: 'NotAFile',
  fileExists: 'FileExists',
  fileAccessDenied: 'FileAccessDenied',
  diskFull: 'DiskFull',
  tooManyOpenFiles: 'TooManyOpenFiles',
  /** A file system failure without a sentence of its own; the message names the path and errno. */
  fileSystemError: 'FileSystemError',
  /** Browser mode keeps server paths inside the app's own folders. */
  pathNotAllowed: 'PathNotAllowed',
  /** The endpoint does not implement this (DynamoDB Local has no PITR, tags or table classes). */
  notSupported: 'NotSupported',
  /** DynamoDB's (or a proxy's) answer was not the JSON DynamoDB sends; nothing of it was counted or shown. */
  unexpectedResponse: 'UnexpectedResponse',
  internal: 'InternalError',
} as const;

export class AppFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = code;
  }
}
