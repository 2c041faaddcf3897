import { operationEventSchema, type OperationEvent } from '../../shared/ipc';
import { STREAM_GAP_EVENT, streamGapSchema } from '../../shared/ipc/event-stream';
import { useSelectionStore } from '../features/items/selection-store';
import { useEditorStore } from '../features/editor/store';
import { useItemsStore } from '../features/items/store';
import { useMfaStore } from '../features/mfa/store';
import { useOperationsStore } from '../features/operations/store';
import { desktopBridge } from './bridge';

/**
 * The one module that forwards main→renderer operation events to stores. Desktop: the preload's
 * onEvent. Browser mode: a server-sent event stream authenticated by the same cookie as calls;
 * when it drops, EventSource reconnects with the last event's id and the server replays what
 * was missed, or says with a `gap` event that it no longer can.
 */
let streamOpen: Promise<void> = Promise.resolve();
let markOpen: () => void = () => undefined;

/**
 * Resolves once the browser-mode event stream is connected (at once in the desktop app). Main
 * only forwards events to streams that are connected, so an operation started before the
 * EventSource opened could lose its early events — even its `done` — and its view would wait
 * forever. Calls wait for this (bounded), so every operation starts with someone listening.
 */
export function eventStreamReady(timeoutMs = 5_000): Promise<void> {
  return Promise.race([streamOpen, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}

export function startEventForwarding(): () => void {
  const deliver = (event: OperationEvent): void => {
    // Not an operation: result sets that writes changed, which the Items tabs read again.
    if (event.type === 'resultsets') {
      useItemsStore.getState().applyWrites(event.changes);
      return;
    }
    // Not an operation either: what DynamoDB now holds for items DynoTable wrote.
    if (event.type === 'written') {
      useSelectionStore.getState().written(event.connectionId, event.table, event.items);
      useEditorStore.getState().written(event.connectionId, event.table, event.source, event.items);
      return;
    }
    // A prompt nobody in this window started: main waits for a code before a call can go on.
    if (event.type === 'mfa') useMfaStore.getState().prompted(event);
    useOperationsStore.getState().receive(event);
  };
  const bridge = desktopBridge();
  if (bridge) return bridge.onEvent(deliver);
  if (typeof EventSource === 'undefined') return () => undefined;

  streamOpen = new Promise<void>((resolve) => (markOpen = resolve));
  const source = new EventSource('/api/events', { withCredentials: true });
  source.onopen = () => markOpen();
  source.onmessage = (message: MessageEvent<string>) => {
    // The stream crosses a process boundary: check its shape like any other input.
    const result = operationEventSchema.safeParse(parseJson(message.data));
    if (result.success) deliver(result.data);
  };
  source.addEventListener(STREAM_GAP_EVENT, (message: MessageEvent<string>) => {
    const result = streamGapSchema.safeParse(parseJson(message.data));
    if (result.success) useOperationsStore.getState().receiveGap(result.data);
  });
  return () => source.close();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
