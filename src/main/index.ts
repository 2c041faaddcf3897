import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import type { CoreContext } from './core/context';
import { createCore, shutdownCore } from './create-core';
import { registerElectronIpc } from './ipc/electron-ipc';
import { handlers } from './ipc/handlers';
import { openExternalSafely } from './security/open-external';
import { createSafeStorageSecretStore } from './security/safe-storage-secret-store';
import { hardenAllWebContents } from './security/web-contents';
import { isAppUrl, type AppLocation } from './windows/app-url';
import { electronFileDialog } from './windows/file-dialog';
import { createMainWindow } from './windows/main-window';
import { mcpHttpService } from './mcp/http-service';

/** App lifecycle only: everything else lives in core/, ipc/, windows/ and security/. */

// Every renderer sandboxed, including any that a future feature forgets to configure.
app.enableSandbox();

// `electron-vite dev` sets ELECTRON_RENDERER_URL. A packaged app ignores it, so nobody can point
// an installed DynoTable at a remote page through the environment.
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const isDev = devServerUrl !== undefined;
const location: AppLocation = devServerUrl
  ? { kind: 'dev-server', url: devServerUrl }
  : { kind: 'file', indexFile: join(__dirname, '../renderer/index.html') };
const preloadPath = join(__dirname, '../preload/index.js');

/** How long quitting may wait for DynamoDB Local and the result-set worker to stop. */
const shutdownTimeoutMs = 10_000;

let mainWindow: BrowserWindow | undefined;
let core: CoreContext | undefined;
let isShutDown = false;

function showWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createMainWindow({ location, preloadPath, isDev });
    mainWindow.on('closed', () => (mainWindow = undefined));
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function start(): Promise<void> {
  await app.whenReady();
  hardenAllWebContents();
  const dataDir = app.getPath('userData');
  core = createCore({
    mode: 'desktop',
    version: app.getVersion(),
    dataDir,
    secrets: createSafeStorageSecretStore(dataDir),
    fileDialog: electronFileDialog(() => mainWindow),
    openUrl: async (url) => {
      await openExternalSafely(url);
    },
  });
  registerElectronIpc({
    handlers,
    ctx: core,
    getWindow: () => mainWindow,
    isAppUrl: (url) => isAppUrl(url, location),
  });
  // Connections left switched on for coding agents are served again; a taken port picks another.
  void mcpHttpService(core)
    .resume()
    .catch(() => undefined);
  showWindow();
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

if (!app.requestSingleInstanceLock()) {
  // A second launch hands over to the running instance (which focuses its window) and leaves.
  app.quit();
} else {
  // Before start() finishes there is nothing to focus yet; the window is on its way.
  app.on('second-instance', () => {
    if (core) showWindow();
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) showWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (isShutDown || !core) return;
    // Stop DynamoDB Local (a Java process) before exiting, or it would outlive the app.
    event.preventDefault();
    const ctx = core;
    core = undefined;
    void withTimeout(shutdownCore(ctx), shutdownTimeoutMs).then(() => {
      isShutDown = true;
      app.quit();
    });
  });
  start().catch((error: unknown) => {
    console.error('DynoTable could not start:', error);
    app.exit(1);
  });
}
