import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { channels, EVENTS_CHANNEL, type Channel } from '../shared/ipc/contract';
import type { DynoTableBridge } from '../shared/ipc/bridge';
import type { OperationEvent } from '../shared/ipc/operations';

type Invoke = (input: unknown) => Promise<unknown>;

/**
 * One named method per channel of the contract, each bound to exactly that channel, so the
 * page can call what the contract declares and nothing else. Main validates every payload.
 */
export function buildBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): DynoTableBridge {
  const methods: Partial<Record<Channel, Invoke>> = {};
  for (const channel of channels) {
    methods[channel] = (input: unknown) => ipc.invoke(channel, input);
  }
  const onEvent = (listener: (event: OperationEvent) => void): (() => void) => {
    // The IPC event object carries `sender` (the ipcRenderer itself); pass on only the payload.
    const forward = (_event: IpcRendererEvent, payload: OperationEvent): void => listener(payload);
    ipc.on(EVENTS_CHANNEL, forward);
    return () => {
      ipc.removeListener(EVENTS_CHANNEL, forward);
    };
  };
  return { ...methods, onEvent } as DynoTableBridge;
}
