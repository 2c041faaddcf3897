import { randomBytes } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { uploadFolder } from './transfer-folders';
import { checkDeclaredLength, pruneOlderThan, requireOctetStream, writeBody } from './upload-body';

/** The same cap as a DynamoDB-JSON document (read whole); JSON Lines and CSV would stream more. */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
/** An upload serves a dry run and the import after it; a day later it is someone's old file. */
const KEEP_MS = 24 * 60 * 60 * 1000;
const ID = /^[A-Za-z0-9_-]{22,64}$/;

export interface UploadReceipt {
  uploadId: string;
  bytes: number;
}

function tooLarge(): AppFailure {
  const mb = MAX_UPLOAD_BYTES / (1024 * 1024);
  return new AppFailure(
    ErrorCodes.invalidInput,
    `The file is larger than ${mb} MB, the most an upload may be. Split it into smaller files (JSON Lines splits at any line), or copy it into DynoTable's data folder on the server and give its path.`,
    false,
    { httpStatus: 413, maxBytes: MAX_UPLOAD_BYTES },
  );
}

/**
 * Browser mode's import source: the page sends the file's bytes (POST /api/upload/import,
 * application/octet-stream), they go to a file of their own under the data folder, and
 * transfer:import then names it by uploadId. Bytes are streamed to disk, never held whole.
 */
export async function receiveImportUpload(dataDir: string, request: IncomingMessage): Promise<UploadReceipt> {
  requireOctetStream(request, 'the file to import');
  checkDeclaredLength(request, MAX_UPLOAD_BYTES, tooLarge);
  const folder = uploadFolder(dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await pruneOlderThan(folder, KEEP_MS);
  const uploadId = randomBytes(24).toString('base64url');
  const bytes = await writeBody(request, path.join(folder, uploadId), MAX_UPLOAD_BYTES, tooLarge);
  return { uploadId, bytes };
}

/** The file of an upload, or a sentence when it is gone (expired, or the server's data folder was cleaned). */
export async function uploadedFile(dataDir: string, uploadId: string): Promise<string> {
  const file = path.join(uploadFolder(dataDir), uploadId);
  if (ID.test(uploadId) && (await stat(file).catch(() => undefined))?.isFile()) return file;
  throw new AppFailure(
    ErrorCodes.fileNotFound,
    `The uploaded file ${uploadId} is no longer on the server (uploads are kept for a day). Choose the file again.`,
    false,
    { uploadId },
  );
}
