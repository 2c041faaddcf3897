import type { OperationEvent } from '../../shared/ipc';

export type EventListener = (event: OperationEvent) => void;

/** Fan-out of operation events to every transport (Electron windows, browser-mode streams). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();
  /** Listeners that only record events (browser mode's replay log): nobody sees those. */
  private recorders = 0;
  /** Open browser tabs, which listen through the replay log rather than here. */
  private viewers = 0;

  subscribe(listener: EventListener, options: { isRecorder?: boolean } = {}): () => void {
    this.listeners.add(listener);
    if (options.isRecorder) this.recorders++;
    let isDone = false;
    return () => {
      if (isDone) return;
      isDone = true;
      this.listeners.delete(listener);
      if (options.isRecorder) this.recorders--;
    };
  }

  /** Counts a window or tab that shows events while it is open; call the result when it closes. */
  watch(): () => void {
    this.viewers++;
    let isDone = false;
    return () => {
      if (isDone) return;
      isDone = true;
      this.viewers--;
    };
  }

  /** Whether a window or browser tab is listening (the CLI's own commands have none). */
  hasListeners(): boolean {
    return this.listeners.size - this.recorders + this.viewers > 0;
  }

  publish(event: OperationEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
