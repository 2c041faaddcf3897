import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream/promises';
import { AppFailure, ErrorCodes } from '../../../shared/errors';

/**
 * Refuses a body that is not raw bytes: application/octet-stream is not a type a cross-site
 * form can send without a CORS preflight (which we never answer).
 */
export function requireOctetStream(request: IncomingMessage, what: string): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/octet-stream') return;
  request.resume();
  throw new AppFailure(
    ErrorCodes.invalidInput,
    `Send ${what} as its raw bytes (Content-Type: application/octet-stream).`,
    false,
    { httpStatus: 415 },
  );
}

/** Refuses at once a body whose declared length is past the cap, before a byte is written. */
export function checkDeclaredLength(
  request: IncomingMessage,
  maxBytes: number,
  tooLarge: () => AppFailure,
): void {
  if (Number(request.headers['content-length'] ?? '0') <= maxBytes) return;
  request.resume();
  throw tooLarge();
}

/**
 * Streams a request body into a new file (`wx`: never over an existing file or a planted link),
 * never held whole; past `maxBytes`, or when the page goes away, the partial file is removed.
 */
export async function writeBody(
  request: IncomingMessage,
  file: string,
  maxBytes: number,
  tooLarge: () => AppFailure,
): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  out.on('error', () => undefined); // surfaced by `closed`
  const closed = finished(out);
  closed.catch(() => undefined);
  let bytes = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLarge();
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), closed]);
    }
    out.end();
    await closed;
  } catch (error) {
    out.destroy();
    request.resume();
    // A file that was already there is not ours to remove.
    if ((error as { code?: unknown }).code !== 'EEXIST') await rm(file, { force: true });
    throw error;
  }
  return bytes;
}

/** Removes what a folder of uploads holds (files or whole upload folders) older than `keepMs`. */
export async function pruneOlderThan(folder: string, keepMs: number): Promise<void> {
  const names = await readdir(folder).catch(() => []);
  const cutoff = Date.now() - keepMs;
  for (const name of names) {
    const entry = path.join(folder, name);
    const info = await stat(entry).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(entry, { recursive: true, force: true });
  }
}
