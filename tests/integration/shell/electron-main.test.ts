import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../../src/shared/ipc/contract';

/**
 * The built Electron main bundle, run under plain Node with a stand-in for the `electron` module
 * (there is no Electron binary on these machines). Everything behind Electron is real: the
 * bundle electron-vite wrote, the core, the connection store, DynamoDB Local and Java.
 */
const root = path.resolve(import.meta.dirname, '../../..');
// Inside the project, so the bundle's external packages resolve from its node_modules.
const outDir = path.join(root, '.tmp', 'shell-main-bundle');
const userData = mkdtempSync(path.join(tmpdir(), 'dynotable-shell-'));

interface Report {
  sandboxEnabledBeforeReady: boolean;
  channels: string[];
  webPreferences: Record<string, unknown>;
  preloadExists: boolean;
  loadedFile: string;
  indexHtml: string;
  appInfo: unknown;
  foreignAppInfo: unknown;
  connections: unknown;
  openDocs: unknown;
  openFile: unknown;
  windowOpenEvil: unknown;
  windowOpenDocs: unknown;
  navigateAwayPrevented: boolean;
  navigateInAppPrevented: boolean;
  permissions: Record<string, boolean>;
  cspHeader: string[];
  playground: { ok: boolean; value?: { state: string; endpoint?: string } };
  quitCalls: number;
  playgroundStoppedOnQuit: boolean;
  openedExternally: string[];
  exitCode: number | undefined;
}
let report: Report;

beforeAll(() => {
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '--outDir',
      outDir,
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  const output = execFileSync(
    process.execPath,
    [
      path.join(import.meta.dirname, 'run-main-bundle.cjs'),
      path.join(outDir, 'main', 'index.js'),
      '--playground',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 150_000,
      env: { ...process.env, FAKE_ELECTRON_USER_DATA: userData },
    },
  );
  report = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Report;
}, 240_000);

afterAll(() => {
  rmSync(userData, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

describe('the built Electron main process', () => {
  it('sandboxes every renderer before the app is ready and registers every contract channel', () => {
    expect(report.sandboxEnabledBeforeReady).toBe(true);
    expect([...report.channels].sort()).toEqual([...channels].sort());
  });

  it('opens a locked-down window on the built renderer, with the preload that was built', () => {
    expect(report.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: false,
    });
    expect(report.preloadExists).toBe(true);
    expect(report.loadedFile).toBe(path.join(outDir, 'renderer', 'index.html'));
    expect(report.indexHtml).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/,
    );
    expect(report.cspHeader[0]).toContain("script-src 'self';");
  });

  it('answers our window through the real core and refuses a foreign page', () => {
    expect(report.appInfo).toEqual({
      ok: true,
      value: {
        version: '0.0.0-test',
        mode: 'desktop',
        platform: process.platform,
        encryptionAvailable: false,
      },
    });
    expect(report.foreignAppInfo).toMatchObject({ ok: false, error: { code: 'Forbidden' } });
    expect(report.connections).toMatchObject({ ok: true });
  });

  it('sends allowed links to the browser and nothing else, and never opens a window or navigates away', () => {
    expect(report.openDocs).toEqual({ ok: true, value: { opened: true } });
    expect(report.openFile).toEqual({ ok: true, value: { opened: false } });
    expect(report.windowOpenEvil).toEqual({ action: 'deny' });
    expect(report.windowOpenDocs).toEqual({ action: 'deny' });
    expect(report.navigateAwayPrevented).toBe(true);
    expect(report.navigateInAppPrevented).toBe(false);
    expect(report.openedExternally).toEqual([
      'https://docs.aws.amazon.com/dynamodb/',
      'https://aws.amazon.com/dynamodb/',
    ]);
  });

  it('grants no permission but clipboard writes', () => {
    expect(report.permissions).toEqual({ geolocation: false, media: false, clipboardWrite: true });
  });

  it('stops DynamoDB Local when the app quits', () => {
    expect(report.playground).toMatchObject({ ok: true, value: { state: 'running' } });
    expect(report.quitCalls).toBe(2);
    expect(report.playgroundStoppedOnQuit).toBe(true);
    expect(report.exitCode).toBeUndefined();
  });
});
