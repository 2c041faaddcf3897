import type { OperationEvent, Progress } from '../../../src/shared/ipc';
import { useOperationsStore } from '../../../src/renderer/features/operations/store';

/*
 * Main's side of long work for renderer tests: events handed to the real operations store as the
 * event stream delivers them (each request's own seq), and a purge's done value of the declared shape.
 */

export const counts = (items: number, message?: string): Progress => ({
  items,
  pages: 1,
  consumedCapacity: 0.5,
  message,
});

const seqs = new Map<string, number>();

/** Main's next event for the request, through the operations store. */
export function emit(requestId: string, event: Record<string, unknown>): void {
  const seq = seqs.get(requestId) ?? 0;
  seqs.set(requestId, seq + 1);
  useOperationsStore.getState().receive({ ...event, requestId, seq } as OperationEvent);
}

/** tables:purge's done value. */
export const purged = {
  table: 'Orders',
  deleted: 2,
  alreadyGone: 0,
  failed: 0,
  failures: [],
  readUnits: 1,
  isEmpty: true,
};
