import { useCallback, useRef, useState } from 'react';
import type { AppError, Envelope } from '../../../shared/errors';
import { transportErrorCode } from '../../ipc/client';
import type { FolderPlan, UploadEntry } from './folder-layout';

const ROUTE = '/api/upload/export-folder';

export interface FolderUploadState {
  folder: string;
  filesSent: number;
  files: number;
  bytesSent: number;
  bytes: number;
}

interface Receipt {
  uploadId: string;
}

const failure = (message: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: transportErrorCode, message, retryable: true },
});

/**
 * One file to the upload route. XMLHttpRequest rather than fetch: only it reports how much of a
 * request body has gone, which a 2 GB data file needs to show. Never throws; an abort answers
 * undefined.
 */
function sendFile(
  entry: UploadEntry,
  uploadId: string | undefined,
  signal: AbortSignal,
  onSent: (bytes: number) => void,
): Promise<Envelope<Receipt> | undefined> {
  return new Promise((resolve) => {
    const query = new URLSearchParams({ name: entry.name, ...(uploadId ? { upload: uploadId } : {}) });
    const request = new XMLHttpRequest();
    request.open('POST', `${ROUTE}?${query.toString()}`);
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.onprogress = (event) => onSent(event.loaded);
    request.onload = () => {
      try {
        resolve(JSON.parse(request.responseText) as Envelope<Receipt>);
      } catch {
        resolve(failure(`DynoTable answered the upload of ${entry.name} with HTTP ${request.status}.`));
      }
    };
    request.onerror = () =>
      resolve(
        failure(
          `${entry.name} could not be sent: DynoTable is not answering. Check that \`dynotable serve\` is still running.`,
        ),
      );
    request.onabort = () => resolve(undefined);
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(entry.file);
  });
}

/** Removes a partial upload on the server; what it answers changes nothing for the user. */
function removeUpload(uploadId: string): void {
  void fetch(`${ROUTE}?${new URLSearchParams({ upload: uploadId }).toString()}`, {
    method: 'DELETE',
    credentials: 'same-origin',
  }).catch(() => undefined);
}

export type UploadOutcome = { uploadId: string } | { error: AppError } | { cancelled: true };

/**
 * Browser mode's export folder upload: its files one after another into one upload folder on
 * the server, with progress by bytes, and a cancel that stops the file in flight and removes
 * what was sent.
 */
export function useFolderUpload() {
  const [state, setState] = useState<FolderUploadState>();
  const abort = useRef<AbortController | undefined>(undefined);

  const upload = useCallback(async (plan: FolderPlan & { ok: true }): Promise<UploadOutcome> => {
    const { folder, uploads: entries, bytes } = plan;
    const controller = new AbortController();
    abort.current = controller;
    let done = 0;
    let uploadId: string | undefined;
    const progress = (filesSent: number, bytesSent: number) =>
      setState({ folder, filesSent, files: entries.length, bytesSent, bytes });
    progress(0, 0);
    try {
      for (const [index, entry] of entries.entries()) {
        const answer = await sendFile(entry, uploadId, controller.signal, (sent) =>
          progress(index, done + sent),
        );
        if (!answer || controller.signal.aborted) {
          if (uploadId) removeUpload(uploadId);
          return { cancelled: true };
        }
        if (!answer.ok) {
          if (uploadId) removeUpload(uploadId);
          return { error: answer.error };
        }
        uploadId = answer.value.uploadId;
        done += entry.file.size;
        progress(index + 1, done);
      }
      return uploadId ? { uploadId } : { cancelled: true };
    } finally {
      abort.current = undefined;
      setState(undefined);
    }
  }, []);

  const cancel = useCallback(() => abort.current?.abort(), []);
  return { state, upload, cancel };
}
