import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import type { CoreContext } from '../../src/main/core/context';
import { EventBus } from '../../src/main/core/events';
import { OperationRegistry } from '../../src/main/core/operations';
import { createDispatcher, type HandlerTable } from '../../src/main/ipc/dispatcher';
import { appHandlers } from '../../src/main/ipc/handlers/app';
import { startBrowserServer, type BrowserServer } from '../../src/main/server/http-server';
import { envelopeOf, errorOf, openEvents, rawRequest, tokenOf } from '../support/browser-http';

// The transport is under test here, so the core is the real dispatcher, EventBus and
// OperationRegistry with the app handlers; the full core over HTTP is covered by the CLI test.
const events = new EventBus();
const ctx = {
  mode: 'browser',
  version: '0.0.0-test',
  platform: process.platform,
  secrets: createUnavailableSecretStore(),
  events,
  operations: new OperationRegistry(events),
  openExternal: () => Promise.resolve(false),
} as unknown as CoreContext;
const dispatchReal = createDispatcher(appHandlers as HandlerTable, ctx);
const dispatched: string[] = [];
const dispatch = (channel: string, payload: unknown) => {
  dispatched.push(channel);
  return dispatchReal(channel, payload);
};

const logs: string[] = [];
let server: BrowserServer;
let token: string;
let port: number;
let root: string;

const json = { 'content-type': 'application/json' };
const bearer = () => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dynotable-browser-'));
  const staticDir = path.join(root, 'renderer');
  await mkdir(path.join(staticDir, 'assets'), { recursive: true });
  await writeFile(
    path.join(staticDir, 'index.html'),
    '<!doctype html><title>DynoTable</title><div id="root"></div>',
  );
  await writeFile(path.join(staticDir, 'assets', 'app.js'), 'console.log("app");');
  await writeFile(path.join(staticDir, 'assets', 'app.css'), 'body{}');
  await writeFile(path.join(root, 'secret.txt'), 'outside the renderer');
  await symlink(path.join(root, 'secret.txt'), path.join(staticDir, 'assets', 'link.txt'));
  server = await startBrowserServer({
    dispatch,
    events,
    staticDir,
    port: 0,
    log: (line) => logs.push(line),
    heartbeatMs: 50,
  });
  token = tokenOf(server.url);
  port = server.port;
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('browser mode: who may call', () => {
  it('listens on 127.0.0.1 and prints an address that carries a long random token', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${port}`);
    expect(server.url).toBe(`${server.origin}/?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a call without the token before any handler runs', async () => {
    dispatched.length = 0;
    const res = await rawRequest({ port, path: '/api/app:info', method: 'POST', headers: json, body: '{}' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'Unauthorized' } });
    expect(errorOf(res).message).toContain('dynotable serve');
    expect(dispatched).toEqual([]);
  });

  it('refuses a wrong token, by header, by cookie and in the first link', async () => {
    dispatched.length = 0;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Record<string, string>[] = [
      { authorization: `Bearer ${wrong}` },
      { cookie: `dynotable_token=${wrong}` },
      { authorization: 'Bearer ' },
    ];
    for (const headers of attempts) {
      const res = await rawRequest({
        port,
        path: '/api/app:info',
        method: 'POST',
        headers: { ...json, ...headers },
        body: '{}',
      });
      expect(res.status).toBe(401);
    }
    const first = await rawRequest({ port, path: `/?token=${wrong}`, headers: { accept: 'text/html' } });
    expect(first.status).toBe(401);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.body).toContain('Open the address that `dynotable serve` printed');
    expect(dispatched).toEqual([]);
  });

  it.each([
    ['a rebinding host name', 'evil.example'],
    ['another port on loopback', '127.0.0.1:1'],
    ['localhost on another port', 'localhost:1'],
    ['our port on another address', '0.0.0.0'],
  ])('refuses a foreign Host header (%s) even with the right token', async (_name, host) => {
    dispatched.length = 0;
    const value = host.includes(':') ? host : `${host}:${port}`;
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, ...bearer(), host: value },
      body: '{}',
    });
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'ForeignHost' } });
    expect(dispatched).toEqual([]);
  });

  it('accepts localhost on our port as the Host', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, ...bearer(), host: `localhost:${port}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['another local port', { origin: 'http://127.0.0.1:1' }],
    ['a null origin (sandboxed frame, file page)', { origin: 'null' }],
    ['a cross-site fetch without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site page on another port', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a request from %s even with the right token', async (_name, headers) => {
    dispatched.length = 0;
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, ...bearer(), ...headers },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'ForeignOrigin' } });
    expect(dispatched).toEqual([]);
  });

  it('accepts our own Origin and a same-origin fetch', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, ...bearer(), origin: server.origin, 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });

  it('refuses a form post (no JSON content type), the one cross-origin write a browser sends without asking', async () => {
    dispatched.length = 0;
    const res = await rawRequest({
      port,
      path: '/api/app:openExternal',
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'text/plain' },
      body: '{"url":"https://aws.amazon.com"}',
    });
    expect(res.status).toBe(415);
    expect(dispatched).toEqual([]);
  });
});

describe('browser mode: the first load', () => {
  it('trades the token in the link for an HttpOnly SameSite=Strict cookie and redirects to / without it', async () => {
    const res = await rawRequest({
      port,
      path: `/?token=${token}`,
      headers: { accept: 'text/html', 'sec-fetch-site': 'none' },
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const cookie = res.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^dynotable_token=${token};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');

    const page = await rawRequest({
      port,
      path: '/',
      headers: { cookie: `dynotable_token=${token}`, accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<div id="root">');
  });

  it('never redirects to another host from the first link', async () => {
    const res = await rawRequest({ port, path: `//evil.example/?token=${token}` });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  it('opens with a same-origin refresh when the link was followed from another site', async () => {
    const res = await rawRequest({
      port,
      path: `/?token=${token}`,
      headers: { accept: 'text/html', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']?.[0]).toContain('SameSite=Strict');
    expect(res.body).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(res.body).not.toContain(token);
  });

  it('refuses the app page without the cookie, with a page a person can read', async () => {
    const res = await rawRequest({ port, path: '/', headers: { accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Open the address that `dynotable serve` printed');
  });
});

describe('browser mode: the API is the contract', () => {
  it('returns the dispatcher envelope for a valid call', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, cookie: `dynotable_token=${token}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual({
      ok: true,
      value: {
        version: '0.0.0-test',
        mode: 'browser',
        platform: process.platform,
        encryptionAvailable: false,
      },
    });
  });

  it('accepts a URL-encoded channel name', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app%3Ainfo',
      method: 'POST',
      headers: { ...json, ...bearer() },
      body: '',
    });
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { mode: 'browser' } });
  });

  it('answers a bad payload with InvalidInput and a sentence', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app:openExternal',
      method: 'POST',
      headers: { ...json, ...bearer() },
      body: '{"url":42}',
    });
    expect(res.status).toBe(200);
    expect(envelopeOf(res)).toMatchObject({ ok: false, error: { code: 'InvalidInput', retryable: false } });
    expect(errorOf(res).message).toMatch(/^The request was not valid at url: .+\.$/);
  });

  it('answers unparsable JSON with 400 and an InvalidInput envelope', async () => {
    const res = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { ...json, ...bearer() },
      body: '{"oops',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      ok: false,
      error: { code: 'InvalidInput', message: 'The request body is not valid JSON.', retryable: false },
    });
  });

  it('answers an unknown channel with UnknownChannel', async () => {
    const res = await rawRequest({
      port,
      path: '/api/tables:drop',
      method: 'POST',
      headers: { ...json, ...bearer() },
      body: '{}',
    });
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
  });

  it('refuses a body over the limit with 413 and a sentence, before any handler runs', async () => {
    const small = await startBrowserServer({
      dispatch,
      events,
      staticDir: root,
      port: 0,
      maxBodyBytes: 1024 * 1024,
    });
    try {
      dispatched.length = 0;
      const res = await rawRequest({
        port: small.port,
        path: '/api/app:openExternal',
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${tokenOf(small.url)}` },
        body: JSON.stringify({ url: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(res.status).toBe(413);
      expect(errorOf(res)).toEqual({
        code: 'InvalidInput',
        message: 'The request body is larger than 1 MB, the most DynoTable accepts.',
        retryable: false,
      });
      expect(dispatched).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('refuses GET on a channel', async () => {
    const res = await rawRequest({ port, path: '/api/app:info', headers: bearer() });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('browser mode: the event stream', () => {
  it('refuses the stream without the token', async () => {
    const res = await rawRequest({ port, path: '/api/events', headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(401);
  });

  it('refuses the stream to a foreign Origin', async () => {
    const res = await rawRequest({
      port,
      path: '/api/events',
      headers: { ...bearer(), origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });

  it('delivers operation events and heartbeats with the token, through one subscription for all pages', async () => {
    const busListeners = () => (events as unknown as { listeners: Set<unknown> }).listeners.size;
    // The server's replay log is the one subscriber, so events are kept while no page listens.
    expect(busListeners()).toBe(1);
    const stream = await openEvents(port, { cookie: `dynotable_token=${token}` });
    expect(busListeners()).toBe(1);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    let heartbeats = 0;
    stream.response.on('data', (chunk: string) => (heartbeats += chunk.split(': heartbeat').length - 1));

    // A real operation through the registry, so the wire shape is the one the UI receives.
    ctx.operations.start('req_browser_1', () =>
      Promise.resolve({ progress: { items: 3, pages: 1, consumedCapacity: 0.5 } }),
    );
    expect(await stream.next()).toEqual({
      type: 'done',
      requestId: 'req_browser_1',
      seq: 0,
      progress: { items: 3, pages: 1, consumedCapacity: 0.5 },
    });
    await expect.poll(() => heartbeats, { timeout: 5_000 }).toBeGreaterThan(0);
    stream.close();
  });
});

describe('browser mode: static files and headers', () => {
  const withCookie = () => ({ cookie: `dynotable_token=${token}` });

  it('serves the renderer with the right content types and the strict headers', async () => {
    const js = await rawRequest({ port, path: '/assets/app.js', headers: withCookie() });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await rawRequest({ port, path: '/assets/app.css', headers: withCookie() });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const csp = js.headers['content-security-policy'] ?? '';
    for (const directive of [
      "script-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.headers['referrer-policy']).toBe('no-referrer');
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%5c..%5c..%5csecret.txt',
    '/assets/link.txt',
    '/assets/%00.js',
  ])('refuses to leave the renderer folder: %s', async (target) => {
    const res = await rawRequest({ port, path: target, headers: withCookie() });
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('outside the renderer');
  });

  it('falls back to index.html for client-side routes, not for missing assets', async () => {
    expect((await rawRequest({ port, path: '/tables/orders', headers: withCookie() })).body).toContain(
      '<div id="root">',
    );
    expect((await rawRequest({ port, path: '/assets/missing.js', headers: withCookie() })).status).toBe(404);
  });
});

describe('browser mode: logs', () => {
  it('logs method, path and status, and never the token or a query string', () => {
    expect(logs.length).toBeGreaterThan(20);
    expect(logs.some((line) => /^GET \/ 302 \d+ms$/.test(line))).toBe(true);
    expect(logs.some((line) => /^POST \/api\/app:info 401 \d+ms$/.test(line))).toBe(true);
    for (const line of logs) {
      expect(line).not.toContain(token);
      expect(line).not.toContain('token=');
      expect(line).not.toContain('?');
    }
  });
});
