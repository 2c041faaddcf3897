import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toAppError } from '../core/to-app-error';
import { handleApiCall, type DispatchFn } from './api-route';
import { createToken, isAuthorized } from './auth';
import { EventReplayLog, type EventFeed, type ReplayLimits } from './event-replay';
import { openEventStream } from './event-stream';
import { answerFirstLoad, isFirstLoad } from './first-load';
import { checkHost, checkSite, unauthorized } from './request-guard';
import { sendJson, sendRefusal, setSecurityHeaders } from './responses';
import { serveStatic } from './static-files';

export type ServerLog = (line: string, level: 'info' | 'error') => void;

export interface BrowserServerOptions {
  dispatch: DispatchFn;
  events: EventFeed;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Receives one line per request: method, path without query, status, time. Never the token. */
  log?: ServerLog;
  /** For tests; SSE comment lines keep idle streams alive through proxies and tunnels. */
  heartbeatMs?: number;
  /** How much of the event stream a reconnecting page can catch up on; smaller in tests. */
  replay?: ReplayLimits;
  maxBodyBytes?: number;
  /**
   * Streams an export of a result set as a file download (GET /api/download/export). Browser
   * mode has no save dialog in main, so a million rows go to the browser's downloads instead.
   */
  exportDownload?: (params: URLSearchParams, response: ServerResponse) => Promise<void>;
  /**
   * Takes a file to import from the page (POST /api/upload/import, the raw bytes) and answers
   * with what transfer:import then names it by. Browser mode reads no path the page chose.
   */
  importUpload?: (request: IncomingMessage) => Promise<unknown>;
  /**
   * Takes one file of an export folder the page picked (POST /api/upload/export-folder, raw
   * bytes, its layout name in the query) or removes such an upload (DELETE); exports:openFolder
   * then opens it by uploadId.
   */
  exportFolderUpload?: (request: IncomingMessage, params: URLSearchParams) => Promise<unknown>;
}

export interface BrowserServer {
  /** The address to open once: carries the token, which the first load trades for a cookie. */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

/**
 * A browser retries a dropped stream after 2 s; a sleeping laptop or a paused SSH tunnel takes
 * longer. This covers minutes of a busy scan (one progress event a page) within a few MB.
 */
const DEFAULT_REPLAY: ReplayLimits = { maxEvents: 5_000, maxBytes: 4 * 1024 * 1024 };

/**
 * Browser mode: the same dispatcher as Electron IPC, over HTTP on 127.0.0.1 only. Every request
 * must name our Host, come from our own origin and present this launch's token.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = createToken();
  const log = options.log ?? (() => undefined);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<() => void>();
  const events = new EventReplayLog(options.events, options.replay ?? DEFAULT_REPLAY);
  let port = 0;

  async function route(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    setSecurityHeaders(response);
    const hostRefusal = checkHost(request, port);
    if (hostRefusal) {
      sendRefusal(request, response, hostRefusal);
      return;
    }
    if (isFirstLoad(request, url)) {
      answerFirstLoad(request, response, url, token);
      return;
    }
    const refusal = checkSite(request, port) ?? (isAuthorized(request, token) ? undefined : unauthorized());
    if (refusal) {
      sendRefusal(request, response, refusal);
      return;
    }
    if (url.pathname === '/api/events') {
      openEvents(request, response);
    } else if (
      url.pathname === '/api/download/export' &&
      request.method === 'GET' &&
      options.exportDownload
    ) {
      await startDownload(response, url, options.exportDownload);
    } else if (url.pathname === '/api/upload/import' && options.importUpload) {
      await receiveUpload(request, response, options.importUpload);
    } else if (url.pathname === '/api/upload/export-folder' && options.exportFolderUpload) {
      const upload = options.exportFolderUpload;
      await receiveUpload(request, response, (req) => upload(req, url.searchParams), ['POST', 'DELETE']);
    } else if (url.pathname.startsWith('/api/')) {
      const channel = decodeChannel(url.pathname.slice('/api/'.length));
      await handleApiCall(request, response, channel, options.dispatch, options.maxBodyBytes);
    } else {
      await serveStatic(request, response, options.staticDir, url.pathname);
    }
  }

  async function startDownload(
    response: ServerResponse,
    url: URL,
    download: NonNullable<BrowserServerOptions['exportDownload']>,
  ): Promise<void> {
    try {
      await download(url.searchParams, response);
    } catch (error) {
      // Before the first byte the refusal is an envelope the page can show; after it, the
      // browser's download simply fails.
      if (response.headersSent) response.destroy();
      else sendJson(response, 400, { ok: false, error: toAppError(error) });
    }
  }

  async function receiveUpload(
    request: IncomingMessage,
    response: ServerResponse,
    upload: NonNullable<BrowserServerOptions['importUpload']>,
    methods = ['POST'],
  ): Promise<void> {
    if (!methods.includes(request.method ?? '')) {
      response.setHeader('Allow', methods.join(', '));
      sendJson(response, 405, {
        ok: false,
        error: { code: 'InvalidInput', message: 'Upload a file with POST.', retryable: false },
      });
      return;
    }
    try {
      sendJson(response, 200, { ok: true, value: await upload(request) });
    } catch (error) {
      const appError = toAppError(error);
      const status = appError.details?.httpStatus;
      // The rest of a refused body is dropped; closing lets the client read the answer at once.
      if (typeof status === 'number' && status === 413) response.setHeader('Connection', 'close');
      sendJson(response, typeof status === 'number' ? status : 400, { ok: false, error: appError });
    }
  }

  function openEvents(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== 'GET') {
      response.setHeader('Allow', 'GET');
      sendJson(response, 405, {
        ok: false,
        error: { code: 'InvalidInput', message: 'Open the event stream with GET.', retryable: false },
      });
      return;
    }
    const close = openEventStream(request, response, events, heartbeatMs, () => streams.delete(close));
    streams.add(close);
  }

  const server = createServer((request, response) => {
    const started = Date.now();
    const url = parseRequestUrl(request.url);
    if (!url) {
      setSecurityHeaders(response);
      sendJson(response, 400, {
        ok: false,
        error: { code: 'InvalidInput', message: 'The request address is not a path.', retryable: false },
      });
      log(`${request.method ?? '?'} (malformed target) 400`, 'info');
      return;
    }
    response.on('finish', () =>
      log(
        `${request.method ?? '?'} ${url.pathname} ${response.statusCode} ${Date.now() - started}ms`,
        'info',
      ),
    );
    route(request, response, url).catch((error: unknown) => {
      log(
        `${request.method ?? '?'} ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}`,
        'error',
      );
      if (!response.headersSent) {
        sendJson(response, 500, {
          ok: false,
          error: {
            code: 'InternalError',
            message: 'DynoTable could not answer this request.',
            retryable: false,
          },
        });
      } else {
        response.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    const refuse = (error: Error) => {
      events.close();
      reject(error);
    };
    server.once('error', refuse);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK}:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const closeStream of [...streams]) closeStream();
        events.close();
        const force = setTimeout(() => server.closeAllConnections(), 2_000);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        setImmediate(() => server.closeIdleConnections());
      }),
  };
}

/**
 * Only origin-form targets ('/path?query'). Parsed against a fixed base (the Host header is
 * untrusted until checked); the prefix keeps '//x' a path instead of a host.
 */
function parseRequestUrl(target: string | undefined): URL | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return undefined;
  }
}

function decodeChannel(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
