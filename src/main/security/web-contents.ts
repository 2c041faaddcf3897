import { app } from 'electron';

/**
 * A net under every webContents the app will ever create, not just the main window: no popups
 * and no <webview>. The main window adds its own, finer rules on top (windows/main-window.ts).
 */
export function hardenAllWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}
