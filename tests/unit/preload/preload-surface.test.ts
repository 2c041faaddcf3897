import { beforeAll, describe, expect, it, vi } from 'vitest';
import { contract, EVENTS_CHANNEL } from '../../../src/shared/ipc/contract';
import type { OperationEvent } from '../../../src/shared/ipc/operations';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn<(key: string, api: unknown) => void>() },
  ipcRenderer: {
    invoke: vi.fn((channel: string) => Promise.resolve({ ok: true, value: `answer from ${channel}` })),
    on: vi.fn(),
    removeListener: vi.fn(),
  },
}));
vi.mock('electron', () => electron);

type ExposedApi = Record<string, (...args: unknown[]) => unknown>;
let exposed: ExposedApi;

beforeAll(async () => {
  await import('../../../src/preload/index');
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] ?? [];
  expect(key).toBe('dynotable');
  exposed = api as ExposedApi;
});

describe('the preload surface', () => {
  it('is exactly the contract: one method per channel plus onEvent, nothing generic', () => {
    const expected = [...Object.keys(contract), 'onEvent'].sort();
    expect(Object.keys(exposed).sort()).toEqual(expected);
    for (const name of expected) expect(typeof exposed[name]).toBe('function');
    for (const generic of ['invoke', 'send', 'on', 'ipcRenderer', 'process', 'require']) {
      expect(exposed).not.toHaveProperty(generic);
    }
  });

  it.each(Object.keys(contract))('%s invokes exactly its own channel with the input', async (channel) => {
    electron.ipcRenderer.invoke.mockClear();
    const input = { probe: channel };
    const method = exposed[channel] as (input: unknown) => Promise<unknown>;
    await expect(method(input)).resolves.toEqual({ ok: true, value: `answer from ${channel}` });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledTimes(1);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(channel, input);
  });

  it('delivers operation events without the IPC event object, and unsubscribes', () => {
    const received: unknown[] = [];
    const onEvent = exposed['onEvent'] as (listener: (event: OperationEvent) => void) => () => void;
    const unsubscribe = onEvent((event) => received.push(event));

    const [channel, forward] = electron.ipcRenderer.on.mock.calls.at(-1) as [
      string,
      (event: unknown, payload: unknown) => void,
    ];
    expect(channel).toBe(EVENTS_CHANNEL);
    const event = { type: 'progress', requestId: 'req-12345678', seq: 0 };
    forward({ sender: 'the ipcRenderer itself' }, event);
    expect(received).toEqual([event]);

    unsubscribe();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(EVENTS_CHANNEL, forward);
  });
});
