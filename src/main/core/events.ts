import type { OperationEvent } from '../../shared/ipc';

export type EventListener = (event: OperationEvent) => void;

/** Fan-out of operation events to every transport (Electron windows, browser-mode streams). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a window or browser tab is listening (the CLI's own commands have none). */
  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  publish(event: OperationEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
