import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { channels, EVENTS_CHANNEL } from '../../shared/ipc';
import { ErrorCodes, type Envelope } from '../../shared/errors';
import type { CoreContext } from '../core/context';
import { createDispatcher, type HandlerTable } from './dispatcher';

/** The parts of a BrowserWindow this module needs (a structural type keeps it testable). */
export interface IpcTargetWindow {
  isDestroyed(): boolean;
  readonly webContents: { readonly mainFrame: object; send(channel: string, ...args: unknown[]): void };
}

export interface ElectronIpcOptions {
  handlers: HandlerTable;
  ctx: CoreContext;
  /** The current main window (it is recreated on macOS after all windows closed). */
  getWindow: () => IpcTargetWindow | undefined;
  /** True for our file:// index.html or the electron-vite dev server; see windows/app-url.ts. */
  isAppUrl: (url: string) => boolean;
}

const forbidden: Envelope<never> = {
  ok: false,
  error: {
    code: ErrorCodes.forbidden,
    message: 'This request did not come from the DynoTable window, so it was refused.',
    retryable: false,
  },
};

/**
 * Only the main frame of our own window, showing our own page, may call a handler. A page the
 * window was tricked into showing, an iframe, or another webContents gets Forbidden.
 */
export function isTrustedSender(event: IpcMainInvokeEvent, options: ElectronIpcOptions): boolean {
  const window = options.getWindow();
  const frame = event.senderFrame;
  if (!window || window.isDestroyed() || !frame) return false;
  if (event.sender !== window.webContents) return false;
  if (frame !== window.webContents.mainFrame) return false;
  return options.isAppUrl(frame.url);
}

/**
 * Registers every channel of the contract through the one dispatcher (parse → run → envelope)
 * behind the sender check, and forwards operation events to the window. Returns a disposer.
 */
export function registerElectronIpc(options: ElectronIpcOptions): () => void {
  const dispatch = createDispatcher(options.handlers, options.ctx);
  for (const channel of channels) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      if (!isTrustedSender(event, options)) return forbidden;
      return dispatch(channel, payload);
    });
  }
  const unsubscribe = options.ctx.events.subscribe((event) => {
    const window = options.getWindow();
    if (window && !window.isDestroyed()) window.webContents.send(EVENTS_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
