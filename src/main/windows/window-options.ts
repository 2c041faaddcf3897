import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsInput {
  preloadPath: string;
  /** DevTools only in `electron-vite dev`, never in a build. */
  isDev: boolean;
}

/**
 * The main window's options. Pure, so a unit test can prove every security flag without an
 * Electron binary. Turning any of these off "to make it work" is the bug, not the fix.
 */
export function createWindowOptions({
  preloadPath,
  isDev,
}: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    title: 'DynoTable',
    // Shown once the first paint is ready, so the user never sees a white flash.
    show: false,
    backgroundColor: '#111418',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: isDev,
    },
  };
}
