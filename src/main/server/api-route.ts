import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Envelope } from '../../shared/errors';
import { ErrorCodes } from '../../shared/errors';
import { sendJson } from './responses';

export type DispatchFn = (channel: string, payload: unknown) => Promise<Envelope<unknown>>;

/** Large enough for a 25-item batch of 400 KB items with JSON overhead, small enough to refuse abuse. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? '0');
    if (declared > limit) {
      request.resume(); // drop what arrives, so the client reads our 413 instead of a reset
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        request.resume(); // drain and drop the rest so the response can still be sent
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function failure(code: string, message: string) {
  return { ok: false as const, error: { code, message, retryable: false } };
}

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * POST /api/<channel>: JSON body in, the dispatcher's envelope out with HTTP 200 (errors are
 * data, exactly as over Electron IPC). HTTP status codes mark only transport problems.
 */
export async function handleApiCall(
  request: IncomingMessage,
  response: ServerResponse,
  channel: string,
  dispatch: DispatchFn,
  maxBodyBytes = MAX_BODY_BYTES,
): Promise<void> {
  if (request.method !== 'POST') {
    response.setHeader('Allow', 'POST');
    sendJson(response, 405, failure(ErrorCodes.invalidInput, `Call ${channel} with POST and a JSON body.`));
    return;
  }
  // Browsers cannot send application/json cross-origin without a CORS preflight, which we never
  // answer; insisting on it closes the "simple request" form-post route to CSRF.
  if (!isJsonContentType(request.headers['content-type'])) {
    sendJson(
      response,
      415,
      failure(ErrorCodes.invalidInput, 'Send the request body as JSON (Content-Type: application/json).'),
    );
    return;
  }
  let body: Buffer;
  try {
    body = await readBody(request, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      const mb = Math.round(maxBodyBytes / (1024 * 1024));
      response.setHeader('Connection', 'close');
      sendJson(
        response,
        413,
        failure(
          ErrorCodes.invalidInput,
          `The request body is larger than ${mb} MB, the most DynoTable accepts.`,
        ),
      );
      return;
    }
    throw error;
  }
  let payload: unknown;
  if (body.length > 0) {
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      sendJson(response, 400, failure(ErrorCodes.invalidInput, 'The request body is not valid JSON.'));
      return;
    }
  }
  const envelope = await dispatch(channel, payload);
  sendJson(response, 200, envelope);
}
