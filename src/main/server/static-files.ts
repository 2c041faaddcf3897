import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { sendHtml } from './responses';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file strictly inside root, or undefined. Both the lexical path and the
 * real path (after symlinks) must stay inside root, so `..`, encoded `%2e%2e`, backslashes and
 * links pointing out are all refused.
 */
export async function resolveInside(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) return undefined;
  const candidate = path.resolve(realRoot, `.${path.posix.normalize(`/${decoded}`)}`);
  if (candidate !== realRoot && !candidate.startsWith(realRoot + path.sep)) return undefined;
  const real = await realpath(candidate).catch(() => undefined);
  if (!real || (real !== realRoot && !real.startsWith(realRoot + path.sep))) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? real : undefined;
}

async function sendFile(request: IncomingMessage, response: ServerResponse, file: string): Promise<void> {
  const info = await stat(file);
  response.writeHead(200, { 'Content-Type': contentTypeFor(file), 'Content-Length': info.size });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(file);
    stream.on('error', () => {
      response.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(response);
  });
}

/**
 * The built renderer. Paths without an extension fall back to index.html so a reload on a
 * client-side route still lands in the app; a missing asset is a plain 404.
 */
export async function serveStatic(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
  pathname: string,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    sendHtml(response, 405, 'Method not allowed', 'Only GET and HEAD are served here.');
    return;
  }
  const wanted = pathname === '/' ? '/index.html' : pathname;
  const file = await resolveInside(root, wanted);
  if (file) return sendFile(request, response, file);
  if (path.posix.extname(pathname) === '') {
    const index = await resolveInside(root, '/index.html');
    if (index) return sendFile(request, response, index);
    sendHtml(
      response,
      503,
      'The DynoTable UI is not built',
      `No index.html in ${root}. Run \`npm run build\` and start \`dynotable serve\` again; the API under /api/ works without it.`,
    );
    return;
  }
  sendHtml(response, 404, 'Not found', 'There is no such file in DynoTable.');
}
