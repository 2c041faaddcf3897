import type { AppError, Envelope } from '../../shared/errors';
import { transportErrorCode } from './client';

export interface UploadReceipt {
  uploadId: string;
  bytes: number;
}

/** The server's cap (main/dynamo/transfer/import-upload.ts); checked here first to spare the transfer. */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

const failure = (code: string, message: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { code, message, retryable: code === transportErrorCode },
});

/**
 * Browser mode: sends a file the user picked to the server as raw bytes, for transfer:import to
 * read by uploadId. The server never opens a path the page chose. Never throws.
 */
export async function uploadImportFile(file: File): Promise<Envelope<UploadReceipt>> {
  if (file.size > MAX_UPLOAD_BYTES) {
    return failure(
      'InvalidInput',
      `${file.name} is larger than 256 MB, the most an upload may be. Split it into smaller files (JSON Lines splits at any line).`,
    );
  }
  let response: Response;
  try {
    response = await fetch('/api/upload/import', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      credentials: 'same-origin',
      body: file,
    });
  } catch {
    return failure(
      transportErrorCode,
      `${file.name} could not be sent: DynoTable is not answering. Check that \`dynotable serve\` is still running.`,
    );
  }
  try {
    return (await response.json()) as Envelope<UploadReceipt>;
  } catch {
    return failure(
      transportErrorCode,
      `DynoTable answered the upload of ${file.name} with HTTP ${response.status}.`,
    );
  }
}
