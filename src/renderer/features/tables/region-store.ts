import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import type { RegionTables } from '../../../shared/ipc/table-regions';
import { call, newRequestId } from '../../ipc/client';
import { doneValueOf, onOperation } from '../operations/store';

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
      const requestId = newRequestId('regions');
      const previous = get().lists[connectionId];
      set((state) => ({
        lists: {
          ...state.lists,
          [connectionId]: {
            regions,
            requestId,
            status: 'loading',
            value: previous?.regions.join() === regions.join() ? previous.value : undefined,
          },
        },
      }));
      const stop = onOperation(requestId, (event) => {
        if (event.type === 'progress') update(connectionId, requestId, { message: event.progress.message });
        if (event.type === 'done')
          update(connectionId, requestId, {
            status: 'ready',
            value: doneValueOf('tables:listRegions', event.value)?.regions,
            message: undefined,
          });
        if (event.type === 'cancelled')
          update(connectionId, requestId, { status: 'cancelled', message: undefined });
        if (event.type === 'error')
          update(connectionId, requestId, { status: 'error', error: event.error, message: undefined });
        if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') stop();
      });
      const envelope = await call('tables:listRegions', {
        connectionId,
        requestId,
        regions,
      });
      if (!envelope.ok) {
        stop();
        update(connectionId, requestId, { status: 'error', error: envelope.error });
      }
    },

    cancel(connectionId) {
      const current = get().lists[connectionId];
      if (current?.status === 'loading' && current.requestId)
        void call('ops:cancel', { requestId: current.requestId });
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
