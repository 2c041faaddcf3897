import { create } from 'zustand';
import { splitConnectionId } from '../../../shared/dynamo/regions';
import type { AppError } from '../../../shared/ipc';
import { cancelLongWork, type LongWork, type StartedLongWork, startLongWork } from '../operations/long-work';
import { tableKeyIn, useWorkspaceStore } from '../workspace/store';
import { emptyBuffer, receive, release, type TailBuffer } from './buffer';

export type TailStart = 'LATEST' | 'TRIM_HORIZON';

/** One table's stream tail as the Stream tab shows it. */
export interface TailState {
  connectionId: string;
  table: string;
  from: TailStart;
  /** Set while main follows the stream. */
  requestId?: string;
  shards: number;
  buffer: TailBuffer;
  isPaused: boolean;
  error?: AppError;
}

interface StreamTailsStore {
  /** By connection and table (tailKey): a Map, since table names are the user's data. */
  tails: ReadonlyMap<string, TailState>;
  start(connectionId: string, table: string, from: TailStart): Promise<void>;
  stop(connectionId: string, table: string): void;
  togglePause(connectionId: string, table: string): void;
  setFrom(connectionId: string, table: string, from: TailStart): void;
}

export const tailKey = (connectionId: string, table: string): string => `${connectionId}\u0000${table}`;

const idle = (connectionId: string, table: string): TailState => ({
  connectionId,
  table,
  from: 'LATEST',
  shards: 0,
  buffer: emptyBuffer(),
  isPaused: false,
});

/** The running tails' work, by tailKey: a tail never ends by itself, only on Stop or a closed tab. */
const listening = new Map<string, LongWork>();

/**
 * Stream tails live here, not in the Stream tab: a tail goes on while the user looks at Items
 * (where their writes show up in it) or another table, and ends on Stop or when its table's tab
 * is closed. Records arrive as `stream` events of the tail's operation.
 */
export const useStreamTailsStore = create<StreamTailsStore>((set, get) => {
  const update = (key: string, change: (tail: TailState) => TailState): void => {
    const current = get().tails.get(key);
    if (!current) return;
    const tails = new Map(get().tails);
    tails.set(key, change(current));
    set({ tails });
  };
  const ended = (key: string, requestId: string, error?: AppError): void => {
    listening.get(key)?.stop();
    listening.delete(key);
    update(key, (tail) =>
      tail.requestId === requestId ? { ...tail, requestId: undefined, ...(error ? { error } : {}) } : tail,
    );
  };
  return {
    tails: new Map(),
    async start(connectionId, table, from) {
      const key = tailKey(connectionId, table);
      const previous = get().tails.get(key);
      if (previous?.requestId) void cancelLongWork(previous.requestId);
      listening.get(key)?.stop();
      const work: StartedLongWork = startLongWork(
        'streams:tail',
        { connectionId, table, from },
        {
          prefix: 'tail',
          onEvent: (event) => {
            if (event.type !== 'stream') return;
            update(key, (tail) => ({
              ...tail,
              shards: event.shards,
              buffer:
                event.records.length > 0 ? receive(tail.buffer, event.records, tail.isPaused) : tail.buffer,
            }));
          },
          onEnd: (ending) => ended(key, work.requestId, ending.type === 'failed' ? ending.error : undefined),
        },
      );
      const tails = new Map(get().tails);
      tails.set(key, { ...idle(connectionId, table), from, requestId: work.requestId });
      set({ tails });
      listening.set(key, work);
      await work.started;
    },
    stop(connectionId, table) {
      const requestId = get().tails.get(tailKey(connectionId, table))?.requestId;
      if (requestId) void cancelLongWork(requestId);
    },
    togglePause(connectionId, table) {
      update(tailKey(connectionId, table), (tail) =>
        tail.isPaused
          ? { ...tail, isPaused: false, buffer: release(tail.buffer) }
          : { ...tail, isPaused: true },
      );
    },
    setFrom(connectionId, table, from) {
      const key = tailKey(connectionId, table);
      if (!get().tails.has(key)) {
        const tails = new Map(get().tails);
        tails.set(key, { ...idle(connectionId, table), from });
        set({ tails });
      } else update(key, (tail) => ({ ...tail, from }));
    },
  };
});

/** The tail of a table as the Stream tab shows it (idle until started). */
export function useStreamTail(connectionId: string, table: string): TailState {
  const tail = useStreamTailsStore((state) => state.tails.get(tailKey(connectionId, table)));
  return tail ?? idle(connectionId, table);
}

/**
 * A tail whose table tab was closed (or whose connection was forgotten) has nobody to show it to:
 * main stops following, and the table's records are let go.
 */
useWorkspaceStore.subscribe((workspace) => {
  const { tails } = useStreamTailsStore.getState();
  const closed = [...tails].filter(([, tail]) => {
    const tabs = workspace.tabs[splitConnectionId(tail.connectionId).connectionId];
    return !tabs?.openTables.includes(tableKeyIn(tail.connectionId, tail.table));
  });
  if (closed.length === 0) return;
  const kept = new Map(tails);
  for (const [key, tail] of closed) {
    if (tail.requestId) void cancelLongWork(tail.requestId);
    listening.get(key)?.stop();
    listening.delete(key);
    kept.delete(key);
  }
  useStreamTailsStore.setState({ tails: kept });
});
