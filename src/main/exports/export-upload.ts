import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import {
  checkDeclaredLength,
  pruneOlderThan,
  requireOctetStream,
  writeBody,
} from '../dynamo/transfer/upload-body';
import { dataFolder } from '../files/data-folder';

/**
 * Browser mode's export folder: the page cannot hand main a folder, so it sends the export's
 * files one by one (POST /api/upload/export-folder?name=<relative name>[&upload=<id>]) into a
 * fresh folder of their own under the data folder, and exports:openFolder then opens it by
 * uploadId. A name from the page is never a path: it must be one of the export layout's names,
 * each part plain letters, digits, `.`, `_` or `-`, and it is joined under that folder only.
 */
export const exportUploadFolder = dataFolder.exportUploads;

/** A data file of a real export is tens to hundreds of MB; manifests are a line per data file. */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** Exports write at most a few thousand data files; more is not an export. */
const MAX_FILES = 20_000;
/** Long enough to upload, open and query it; a day later it is someone's old copy. */
const KEEP_MS = 24 * 60 * 60 * 1000;
const ID = /^[A-Za-z0-9_-]{22,64}$/;
const PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const MANIFESTS = new Set(['manifest-summary.json', 'manifest-files.json']);

export interface ExportUploadReceipt {
  uploadId: string;
  /** The name the file is kept under, relative to the upload's folder. */
  name: string;
  bytes: number;
}

const refuse = (message: string, httpStatus = 400, details: Record<string, unknown> = {}) =>
  new AppFailure(ErrorCodes.invalidInput, message, false, { httpStatus, ...details });

/** The name's parts when it is a file of the export layout, at the top or under AWSDynamoDB/<id>/. */
export function exportFileParts(given: string | null): string[] {
  const parts = (given ?? '').split('/');
  const inExport = parts[0] === 'AWSDynamoDB' ? parts.slice(2) : parts;
  const isLayout =
    parts.every((part) => PART.test(part)) &&
    (parts[0] !== 'AWSDynamoDB' || parts.length >= 3) &&
    ((inExport.length === 1 && MANIFESTS.has(inExport[0]!)) ||
      (inExport.length === 2 && inExport[0] === 'data' && inExport[1]!.endsWith('.gz')));
  if (isLayout) return parts;
  const shown = JSON.stringify((given ?? '').slice(0, 200));
  throw refuse(
    `${shown} is not a file of a DynamoDB export. Only manifest-summary.json, manifest-files.json and data/<file>.gz are taken, at the folder's top or under AWSDynamoDB/<export id>/, named with letters, digits, ".", "_" and "-".`,
  );
}

function tooLarge(maxBytes: number): () => AppFailure {
  return () =>
    refuse(
      `The file is larger than ${Math.round(maxBytes / (1024 * 1024)).toLocaleString('en-US')} MB, the most one file of an uploaded export may be. Open an export this large with \`dynotable export open --folder <path>\` on the machine that holds it.`,
      413,
      { maxBytes },
    );
}

function gone(uploadId: string): AppFailure {
  return new AppFailure(
    ErrorCodes.fileNotFound,
    `The uploaded export folder ${uploadId} is no longer on the server (uploads are kept for a day). Choose the folder again.`,
    false,
    { uploadId },
  );
}

/** The folder of an upload, or a sentence when it is gone. */
export async function uploadedExportFolder(dataDir: string, uploadId: string): Promise<string> {
  const folder = path.join(exportUploadFolder(dataDir), uploadId);
  if (ID.test(uploadId) && (await stat(folder).catch(() => undefined))?.isDirectory()) return folder;
  throw gone(uploadId);
}

async function countFiles(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}

/** Takes one file of an export folder; without `upload` it starts a new upload folder. */
export async function receiveExportFile(
  dataDir: string,
  request: IncomingMessage,
  params: URLSearchParams,
): Promise<ExportUploadReceipt> {
  requireOctetStream(request, 'each file of the export folder');
  const parts = exportFileParts(params.get('name'));
  const maxBytes = MANIFESTS.has(parts.at(-1)!) ? MAX_MANIFEST_BYTES : MAX_DATA_FILE_BYTES;
  checkDeclaredLength(request, maxBytes, tooLarge(maxBytes));
  const given = params.get('upload');
  let uploadId: string;
  let folder: string;
  if (given === null) {
    const root = exportUploadFolder(dataDir);
    await mkdir(root, { recursive: true, mode: 0o700 });
    await pruneOlderThan(root, KEEP_MS);
    uploadId = randomBytes(24).toString('base64url');
    folder = path.join(root, uploadId);
    await mkdir(folder, { mode: 0o700 });
  } else {
    uploadId = given;
    folder = await uploadedExportFolder(dataDir, given);
    if ((await countFiles(folder)) >= MAX_FILES) {
      request.resume();
      throw refuse(
        `An uploaded export folder holds at most ${MAX_FILES.toLocaleString('en-US')} files.`,
        413,
      );
    }
  }
  const name = parts.join('/');
  const file = path.join(folder, ...parts);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const bytes = await writeBody(request, file, maxBytes, tooLarge(maxBytes));
    return { uploadId, name, bytes };
  } catch (error) {
    // A fresh folder whose first file failed holds nothing the page can name again.
    if (given === null) await rm(folder, { recursive: true, force: true });
    if ((error as { code?: unknown }).code === 'EEXIST')
      throw refuse(`${name} was already uploaded to this folder; each file is sent once.`, 409);
    throw error;
  }
}

/** Removes an upload folder (the page cancelled, or is done with it). */
export async function removeExportUpload(
  dataDir: string,
  params: URLSearchParams,
): Promise<{ removed: boolean }> {
  const uploadId = params.get('upload') ?? '';
  if (!ID.test(uploadId)) throw refuse('Name the upload to remove (upload=<uploadId>).');
  const folder = path.join(exportUploadFolder(dataDir), uploadId);
  const existed = (await stat(folder).catch(() => undefined))?.isDirectory() ?? false;
  await rm(folder, { recursive: true, force: true });
  return { removed: existed };
}

/** POST takes a file, DELETE removes the upload: the one route's two verbs. */
export function exportFolderUpload(
  dataDir: string,
): (request: IncomingMessage, params: URLSearchParams) => Promise<unknown> {
  return (request, params) =>
    request.method === 'DELETE'
      ? removeExportUpload(dataDir, params)
      : receiveExportFile(dataDir, request, params);
}
