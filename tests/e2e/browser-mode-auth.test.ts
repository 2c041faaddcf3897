import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EventBus } from '../../src/main/core/events';
import { startBrowserServer, type BrowserServer } from '../../src/main/server/http-server';
import { launchBrowser, type Browser } from './support/browser';

// The token, cookie and origin rules as a real Chromium applies them: what the header-level
// integration tests cannot show is how a browser sends cookies, Origin and Sec-Fetch-Site.
const calls: string[] = [];
const logs: string[] = [];
let server: BrowserServer;
let foreign: Server;
let foreignPort: number;
let browser: Browser;
let staticDir: string;

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-auth-'));
  await writeFile(
    path.join(staticDir, 'index.html'),
    '<!doctype html><title>DynoTable</title><p id="app">app</p>',
  );
  server = await startBrowserServer({
    dispatch: (channel) => {
      calls.push(channel);
      return Promise.resolve({ ok: true, value: { channel } });
    },
    events: new EventBus(),
    staticDir,
    port: 0,
    log: (line) => logs.push(line),
  });
  // Another program's page on the same machine: it links to DynoTable and tries to call it.
  foreign = createServer((_request, response) => {
    response.setHeader('Content-Type', 'text/html');
    response.end(`<!doctype html><title>Other</title><a id="open" href="${server.url}">open DynoTable</a>`);
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignPort = (foreign.address() as AddressInfo).port;
  browser = await launchBrowser(inject('chromiumEndpoint'));
});

afterAll(async () => {
  await browser.close();
  await server.close();
  await new Promise((resolve) => foreign.close(resolve));
  await rm(staticDir, { recursive: true, force: true });
});

describe('browser mode in a real browser', () => {
  it('opens the printed link, drops the token from the address bar and keeps it from page scripts', async () => {
    const { page } = browser;
    await page.goto(server.url);
    await page.locator('#app').waitFor();
    expect(page.url()).toBe(`${server.origin}/`);
    await expect.poll(() => page.evaluate(() => document.cookie)).toBe('');
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/app:info', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return (await response.json()) as unknown;
    });
    expect(answer).toEqual({ ok: true, value: { channel: 'app:info' } });
  });

  it('opens the app when the link is followed from another site', async () => {
    const page = await browser.context.newPage();
    await page.goto(`http://localhost:${foreignPort}/`);
    await page.click('#open');
    await page.locator('#app').waitFor();
    expect(page.url()).toBe(`${server.origin}/`);
    await page.close();
  });

  it('refuses calls from another local page, although the browser sends it the cookie', async () => {
    calls.length = 0;
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${foreignPort}/`);
    const target = `${server.origin}/api/connections:delete`;
    const outcome = await page.evaluate(async (url) => {
      const results: string[] = [];
      // A JSON call needs a CORS preflight, which DynoTable never grants.
      await fetch(url, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: '{"connectionId":"x"}',
      })
        .then((r) => results.push(`cors:${r.status}`))
        .catch(() => results.push('cors:blocked'));
      // A "simple" request is sent without asking; the server must refuse it itself.
      await fetch(url, {
        method: 'POST',
        mode: 'no-cors',
        credentials: 'include',
        body: '{"connectionId":"x"}',
      })
        .then((r) => results.push(`simple:${r.type}`))
        .catch(() => results.push('simple:blocked'));
      return results;
    }, target);
    // The simple request does reach the server (and is refused there); its answer is then also
    // hidden from the page by Cross-Origin-Resource-Policy.
    expect(outcome).toEqual(['cors:blocked', 'simple:blocked']);
    expect(calls).toEqual([]);
    expect(logs.filter((line) => line.startsWith('POST /api/connections:delete'))).toEqual([
      expect.stringMatching(/^POST \/api\/connections:delete 403 \d+ms$/),
    ]);
    await page.close();
  });

  it('never writes the token to its log', () => {
    const token = new URL(server.url).searchParams.get('token') ?? '';
    expect(logs.length).toBeGreaterThan(3);
    for (const line of logs) expect(line).not.toContain(token);
  });
});
