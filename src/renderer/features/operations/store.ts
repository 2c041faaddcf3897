import { create } from 'zustand';
import type { OperationEvent, Progress } from '../../../shared/ipc';

type Listener = (event: OperationEvent) => void;

export interface OperationState {
  latest: OperationEvent;
  progress?: Progress;
  isFinished: boolean;
}

interface OperationsStore {
  byRequest: Record<string, OperationState>;
  receive(event: OperationEvent): void;
  forget(requestId: string): void;
}

// Listeners are kept outside zustand state: they are callbacks, not something to render.
const listeners = new Map<string, Set<Listener>>();

/**
 * Every operation event from main lands here (forwarded by ipc/subscriptions.ts). Features read
 * the latest state of their request with a selector, or listen to one request's events.
 */
export const useOperationsStore = create<OperationsStore>()((set) => ({
  byRequest: {},
  receive(event) {
    const isFinished = event.type === 'done' || event.type === 'cancelled' || event.type === 'error';
    set((state) => {
      const previous = state.byRequest[event.requestId];
      // Events of one request arrive in seq order on both transports; drop stale repeats anyway.
      if (previous && previous.latest.seq >= event.seq) return state;
      const progress = 'progress' in event ? event.progress : previous?.progress;
      return {
        byRequest: { ...state.byRequest, [event.requestId]: { latest: event, progress, isFinished } },
      };
    });
    for (const listener of listeners.get(event.requestId) ?? []) listener(event);
  },
  forget(requestId) {
    listeners.delete(requestId);
    set((state) => {
      const { [requestId]: _removed, ...rest } = state.byRequest;
      return { byRequest: rest };
    });
  },
}));

/** Calls `listener` for each event of one request; returns the unsubscribe function. */
export function onOperation(requestId: string, listener: Listener): () => void {
  const set = listeners.get(requestId) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(requestId, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(requestId);
  };
}

export function useOperation(requestId: string | undefined): OperationState | undefined {
  return useOperationsStore((state) => (requestId ? state.byRequest[requestId] : undefined));
}
