import { create } from 'zustand';
import type { OperationEvent, Progress } from '../../../shared/ipc';
import { doneSchemaOf, type OperationChannel, type OperationDone } from '../../../shared/ipc/contract';
import type { StreamGap } from '../../../shared/ipc/event-stream';

type Listener = (event: OperationEvent) => void;

/** Our own code for an operation whose end the browser-mode stream missed (see receiveGap). */
export const outcomeUnknownCode = 'OutcomeUnknown';

export interface OperationState {
  latest: OperationEvent;
  progress?: Progress;
  isFinished: boolean;
}

interface OperationsStore {
  byRequest: Record<string, OperationState>;
  /** Why live updates may be incomplete (browser mode's stream missed more than it can replay). */
  streamNotice?: string;
  receive(event: OperationEvent): void;
  /** After a gap: ends, with a sentence, every operation that stopped while nobody was listening. */
  receiveGap(gap: StreamGap): void;
  dismissStreamNotice(): void;
  forget(requestId: string): void;
}

// Listeners are kept outside zustand state: they are callbacks, not something to render.
const listeners = new Map<string, Set<Listener>>();

/**
 * Every operation event from main lands here (forwarded by shell/event-routing.ts). Features read
 * the latest state of their request with a selector, or listen to one request's events.
 */
export const useOperationsStore = create<OperationsStore>()((set, get) => ({
  byRequest: {},
  receive(event) {
    const previous = get().byRequest[event.requestId];
    // Events of one request arrive once and in seq order on both transports; drop stale repeats
    // anyway, for listeners too, so no feature settles twice.
    if (previous && (previous.isFinished || previous.latest.seq >= event.seq)) return;
    const isFinished = event.type === 'done' || event.type === 'cancelled' || event.type === 'error';
    const progress = 'progress' in event ? event.progress : previous?.progress;
    set((state) => ({
      byRequest: { ...state.byRequest, [event.requestId]: { latest: event, progress, isFinished } },
    }));
    for (const listener of listeners.get(event.requestId) ?? []) listener(event);
  },
  receiveGap(gap) {
    set({ streamNotice: gap.message });
    // Still running: its next events arrive as usual. Not running and not finished here: its
    // end fell in the gap, and a view waiting for it would wait forever.
    for (const [requestId, state] of Object.entries(get().byRequest)) {
      if (state.isFinished || gap.running.includes(requestId)) continue;
      get().receive({
        type: 'error',
        requestId,
        seq: state.latest.seq + 1,
        error: {
          code: outcomeUnknownCode,
          message:
            'This operation ended while the connection to DynoTable was down, so its outcome is not known here. Reload the page, or look at the table, to see what it did.',
          retryable: true,
        },
      });
    }
  },
  dismissStreamNotice() {
    set({ streamNotice: undefined });
  },
  forget(requestId) {
    listeners.delete(requestId);
    set((state) => {
      const { [requestId]: _removed, ...rest } = state.byRequest;
      return { byRequest: rest };
    });
  },
}));

/**
 * Calls `listener` for each event of one request; returns the unsubscribe function. A request that
 * has already ended (a quick one can end before a view subscribes after its next render) hands the
 * listener its ending, once, on the next microtask, unless it unsubscribed meanwhile.
 */
export function onOperation(requestId: string, listener: Listener): () => void {
  const set = listeners.get(requestId) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(requestId, set);
  const ended = useOperationsStore.getState().byRequest[requestId];
  if (ended?.isFinished)
    queueMicrotask(() => {
      if (set.has(listener)) listener(ended.latest);
    });
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(requestId);
  };
}

/**
 * The value of a `done` event of `channel`, checked against the done schema the channel declares
 * in the contract (the stream crosses a process boundary); undefined when it is not of that shape.
 */
export function doneValueOf<C extends OperationChannel>(
  channel: C,
  value: unknown,
): OperationDone<C> | undefined {
  const parsed = doneSchemaOf(channel).safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function useOperation(requestId: string | undefined): OperationState | undefined {
  return useOperationsStore((state) => (requestId ? state.byRequest[requestId] : undefined));
}
