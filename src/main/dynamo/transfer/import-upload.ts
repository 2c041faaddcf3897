import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { uploadFolder } from './transfer-folders';

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

async function pruneOld(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => []);
  const cutoff = Date.now() - KEEP_MS;
  for (const name of names) {
    const file = path.join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
  }
}

/**
 * Browser mode's import source: the page sends the file's bytes (POST /api/upload/import,
 * application/octet-stream), they go to a file of their own under the data folder, and
 * transfer:import then names it by uploadId. Bytes are streamed to disk, never held whole.
 */
export async function receiveImportUpload(dataDir: string, request: IncomingMessage): Promise<UploadReceipt> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  // Not a type a cross-site form can send without a CORS preflight (which we never answer).
  if (type !== 'application/octet-stream') {
    request.resume();
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'Send the file to import as its raw bytes (Content-Type: application/octet-stream).',
      false,
      { httpStatus: 415 },
    );
  }
  if (Number(request.headers['content-length'] ?? '0') > MAX_UPLOAD_BYTES) {
    request.resume();
    throw tooLarge();
  }
  const folder = uploadFolder(dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await pruneOld(folder);
  const uploadId = randomBytes(24).toString('base64url');
  const file = path.join(folder, uploadId);
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  out.on('error', () => undefined); // surfaced by `closed`
  const closed = finished(out);
  closed.catch(() => undefined);
  let bytes = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MAX_UPLOAD_BYTES) throw tooLarge();
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), closed]);
    }
    out.end();
    await closed;
  } catch (error) {
    out.destroy();
    request.resume();
    await rm(file, { force: true });
    throw error;
  }
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
