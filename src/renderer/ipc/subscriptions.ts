import { operationEventSchema, type OperationEvent } from '../../shared/ipc';
import { useOperationsStore } from '../features/operations/store';
import { desktopBridge } from './bridge';

/**
 * The one module that forwards main→renderer operation events to stores. Desktop: the preload's
 * onEvent. Browser mode: a server-sent event stream authenticated by the same cookie as calls.
 */
export function startEventForwarding(): () => void {
  const deliver = (event: OperationEvent): void => useOperationsStore.getState().receive(event);
  const bridge = desktopBridge();
  if (bridge) return bridge.onEvent(deliver);
  if (typeof EventSource === 'undefined') return () => undefined;

  const source = new EventSource('/api/events', { withCredentials: true });
  source.onmessage = (message: MessageEvent<string>) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.data);
    } catch {
      return;
    }
    // The stream crosses a process boundary: check its shape like any other input.
    const result = operationEventSchema.safeParse(parsed);
    if (result.success) deliver(result.data);
  };
  return () => source.close();
}
