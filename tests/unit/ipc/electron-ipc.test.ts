import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../../src/main/core/events';
import type { CoreContext } from '../../../src/main/core/context';
import type { HandlerTable } from '../../../src/main/ipc/dispatcher';
import { contract, EVENTS_CHANNEL, type Channel } from '../../../src/shared/ipc/contract';

type InvokeListener = (event: unknown, payload: unknown) => unknown;

const electron = vi.hoisted(() => ({
  ipcMain: {
    registered: new Map<string, InvokeListener>(),
    handle: vi.fn((channel: string, listener: InvokeListener) => {
      electron.ipcMain.registered.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => electron.ipcMain.registered.delete(channel)),
  },
}));
vi.mock('electron', () => electron);

const { registerElectronIpc } = await import('../../../src/main/ipc/electron-ipc');

const appUrl = 'file:///opt/DynoTable/out/renderer/index.html';
const mainFrame = { url: appUrl };
const webContents = { mainFrame, send: vi.fn() };
const window = { webContents, isDestroyed: () => false };

const calls: Array<{ channel: string; input: unknown }> = [];
const handlers = Object.fromEntries(
  Object.keys(contract).map((channel) => [
    channel,
    (input: unknown) => {
      calls.push({ channel, input });
      return Promise.resolve({ handledBy: channel });
    },
  ]),
) as unknown as HandlerTable;
const events = new EventBus();
const ctx = { events } as unknown as CoreContext;

const invoke = (channel: Channel, event: unknown, payload: unknown = {}): Promise<unknown> => {
  const listener = electron.ipcMain.registered.get(channel);
  if (!listener) throw new Error(`${channel} was not registered`);
  return Promise.resolve(listener(event, payload));
};
const forbidden = { ok: false, error: expect.objectContaining({ code: 'Forbidden' }) as unknown };

let dispose: () => void;
beforeAll(() => {
  dispose = registerElectronIpc({
    handlers,
    ctx,
    getWindow: () => window,
    isAppUrl: (url) => url.split('#')[0] === appUrl,
  });
});

describe('Electron IPC registration', () => {
  it('registers every channel of the contract', () => {
    expect([...electron.ipcMain.registered.keys()].sort()).toEqual(Object.keys(contract).sort());
  });

  it('runs a call from our window through the dispatcher and envelopes the result', async () => {
    calls.length = 0;
    const result = await invoke('app:info', { sender: webContents, senderFrame: mainFrame });
    expect(result).toEqual({ ok: true, value: { handledBy: 'app:info' } });
    expect(calls).toEqual([{ channel: 'app:info', input: {} }]);
  });

  it('validates the payload with the contract before any handler runs', async () => {
    calls.length = 0;
    const result = await invoke(
      'tables:list',
      { sender: webContents, senderFrame: mainFrame },
      { connectionId: 42 },
    );
    expect(result).toMatchObject({ ok: false });
    expect(calls).toEqual([]);
  });

  it.each([
    ['a foreign page in our window', { sender: webContents, senderFrame: { url: 'https://evil.example/' } }],
    ['another local file', { sender: webContents, senderFrame: { url: 'file:///tmp/evil.html' } }],
    ['a subframe of our page', { sender: webContents, senderFrame: { url: appUrl, parent: mainFrame } }],
    ['another webContents', { sender: { mainFrame }, senderFrame: mainFrame }],
    ['a frame that is gone', { sender: webContents, senderFrame: null }],
  ])('refuses %s with Forbidden and runs nothing', async (_why, event) => {
    calls.length = 0;
    await expect(invoke('connections:list', event)).resolves.toEqual(forbidden);
    await expect(invoke('app:openExternal', event, { url: 'https://github.com/' })).resolves.toEqual(
      forbidden,
    );
    expect(calls).toEqual([]);
  });

  it(`forwards operation events to the window on ${EVENTS_CHANNEL}`, () => {
    const event = {
      type: 'progress',
      requestId: 'req-12345678',
      seq: 0,
      progress: { items: 1, pages: 1, consumedCapacity: 0.5 },
    } as const;
    events.publish(event);
    expect(webContents.send).toHaveBeenCalledWith(EVENTS_CHANNEL, event);
  });

  it('unregisters every channel when disposed', () => {
    dispose();
    expect(electron.ipcMain.registered.size).toBe(0);
  });
});
