import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import type { RegionTables } from '../../../shared/ipc/table-regions';
import { cancelLongWork, type StartedLongWork, startLongWork } from '../operations/long-work';

export interface RegionList {
  /** The regions asked for, in the order chosen. */
  regions: string[];
  requestId?: string;
  status: 'loading' | 'ready' | 'cancelled' | 'error';
  /** What the last finished listing found; kept while a new one loads or after a cancel. */
  value?: RegionTables[];
  error?: AppError;
  /** "5 of 33 regions answered…" while loading. */
  message?: string;
}

interface RegionListStore {
  /** Keyed by connection id. */
  lists: Record<string, RegionList>;
  /**
   * The regions each connection's table list shows, keyed by connection id; saved with the
   * workspace in main's data folder (shell/persist.ts), so it survives a restart.
   */
  chosen: Record<string, string[]>;
  choose(connectionId: string, regions: string[]): void;
  load(connectionId: string, regions: string[]): Promise<void>;
  cancel(connectionId: string): void;
  forget(connectionId: string): void;
  /** A deleted connection's choice is not kept. */
  forgetChoice(connectionId: string): void;
}

export const useRegionListStore = create<RegionListStore>()((set, get) => {
  const update = (connectionId: string, requestId: string, patch: Partial<RegionList>) =>
    set((state) => {
      const current = state.lists[connectionId];
      // A newer listing replaced this one: its late events change nothing.
      if (!current || current.requestId !== requestId) return state;
      return { lists: { ...state.lists, [connectionId]: { ...current, ...patch } } };
    });

  return {
    lists: {},
    chosen: {},

    choose(connectionId, regions) {
      set((state) => ({ chosen: { ...state.chosen, [connectionId]: regions } }));
    },

    async load(connectionId, regions) {
      get().cancel(connectionId);
      const previous = get().lists[connectionId];
      const work: StartedLongWork = startLongWork(
        'tables:listRegions',
        { connectionId, regions },
        {
          prefix: 'regions',
          onProgress: (progress) => update(connectionId, work.requestId, { message: progress.message }),
          onEnd: (ending) => {
            if (ending.type === 'done')
              update(connectionId, work.requestId, {
                status: 'ready',
                value: ending.value?.regions,
                message: undefined,
              });
            else if (ending.type === 'cancelled')
              update(connectionId, work.requestId, { status: 'cancelled', message: undefined });
            else
              update(connectionId, work.requestId, {
                status: 'error',
                error: ending.error,
                message: undefined,
              });
          },
        },
      );
      set((state) => ({
        lists: {
          ...state.lists,
          [connectionId]: {
            regions,
            requestId: work.requestId,
            status: 'loading',
            value: previous?.regions.join() === regions.join() ? previous.value : undefined,
          },
        },
      }));
      await work.started;
    },

    cancel(connectionId) {
      const current = get().lists[connectionId];
      if (current?.status === 'loading' && current.requestId) void cancelLongWork(current.requestId);
    },

    forget(connectionId) {
      get().cancel(connectionId);
      set((state) => {
        const { [connectionId]: _removed, ...lists } = state.lists;
        return { lists };
      });
    },

    forgetChoice(connectionId) {
      set((state) => {
        const { [connectionId]: _removed, ...chosen } = state.chosen;
        return { chosen };
      });
    },
  };
});
