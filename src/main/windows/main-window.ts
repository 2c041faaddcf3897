import { BrowserWindow, dialog } from 'electron';
import { openExternalSafely } from '../security/open-external';
import { hardenSession } from '../security/permissions';
import { isAppUrl, type AppLocation } from './app-url';
import { createWindowOptions } from './window-options';

export { createWindowOptions } from './window-options';

export interface MainWindowOptions {
  location: AppLocation;
  preloadPath: string;
  isDev: boolean;
}

/**
 * The one DynoTable window. The renderer is untrusted: it cannot open windows, cannot navigate
 * away from the app, gets no permissions beyond the clipboard, and runs under a strict CSP.
 */
export function createMainWindow({ location, preloadPath, isDev }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(createWindowOptions({ preloadPath, isDev }));
  const contents = window.webContents;
  const ours = (url: string): boolean => isAppUrl(url, location);

  hardenSession(contents.session, ours, isDev);

  // target=_blank links and window.open: never a new Electron window; allowed links go to the
  // user's browser, anything else is dropped.
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url);
    return { action: 'deny' };
  });

  contents.on('will-navigate', (details) => {
    if (ours(details.url)) return;
    details.preventDefault();
    // A plain <a href> to the docs is a user clicking a link; give it to their browser.
    void openExternalSafely(details.url);
  });
  // Subframes are already blocked by CSP (frame-src 'none'); refuse their navigation as well.
  contents.on('will-frame-navigate', (details) => {
    if (!details.isMainFrame) details.preventDefault();
  });
  contents.on('will-redirect', (details) => {
    if (!ours(details.url)) details.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // The renderer's beforeunload holds unsaved edits; a browser would ask, Electron just refuses
  // to close or reload without a word. Main asks instead, and Leave lets the unload go on.
  contents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'question',
      buttons: ['Leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      message: 'Leave with unsaved changes?',
      detail: 'An item you are editing has changes that are not saved. Leaving discards them.',
    });
    if (choice === 0) event.preventDefault();
  });

  window.once('ready-to-show', () => window.show());

  if (location.kind === 'file') void window.loadFile(location.indexFile);
  else void window.loadURL(location.url);

  return window;
}
