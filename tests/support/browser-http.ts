import type { AppError, Envelope } from '../../src/shared/errors';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  port: number;
  path: string;
  method?: string;
  /** Sent exactly as given, Host included (fetch would not let a test forge Host or Origin). */
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One real HTTP request over node:http, with full control of the headers. */
export function rawRequest(options: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${options.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface EventStreamReader {
  response: IncomingMessage;
  /** Resolves with the next `data:` payload, parsed. */
  next(): Promise<unknown>;
  close(): void;
}

/** Opens GET /api/events and hands out its `data:` messages one by one. */
export function openEvents(port: number, headers: Record<string, string>): Promise<EventStreamReader> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/events',
        headers: { host: `127.0.0.1:${port}`, accept: 'text/event-stream', ...headers },
      },
      (res) => {
        const queue: unknown[] = [];
        const waiters: ((value: unknown) => void)[] = [];
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data: '))
              .map((line) => line.slice('data: '.length))
              .join('\n');
            if (!data) continue;
            const value: unknown = JSON.parse(data);
            const waiter = waiters.shift();
            if (waiter) waiter(value);
            else queue.push(value);
          }
        });
        resolve({
          response: res,
          next: () =>
            queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r)),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The token from the printed address, for Bearer calls. */
export function tokenOf(url: string): string {
  const token = new URL(url).searchParams.get('token');
  if (!token) throw new Error(`no token in ${url}`);
  return token;
}

/** The body as the API's envelope. */
export function envelopeOf(res: RawResponse): Envelope<unknown> {
  return JSON.parse(res.body) as Envelope<unknown>;
}

/** The error of a failed envelope (throws on success, so a test cannot pass by accident). */
export function errorOf(res: RawResponse): AppError {
  const envelope = envelopeOf(res);
  if (envelope.ok) throw new Error(`expected a failure, got ${res.body}`);
  return envelope.error;
}
