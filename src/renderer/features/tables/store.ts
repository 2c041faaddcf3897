import { create } from 'zustand';
import type { AppError, ChannelOutput, TableSummary } from '../../../shared/ipc';
import { call } from '../../ipc/client';

export type TableDescription = ChannelOutput<'tables:describe'>;

export type Loadable<T> =
  | { status: 'loading'; value?: T }
  | { status: 'ready'; value: T }
  | { status: 'error'; error: AppError; value?: T };

interface TablesStore {
  /** Keyed by connection id. */
  lists: Record<string, Loadable<TableSummary[]>>;
  /** Keyed by `${connectionId}\u0000${table}`. */
  descriptions: Record<string, Loadable<TableDescription>>;
  loadList(connectionId: string): Promise<void>;
  loadDescription(connectionId: string, table: string): Promise<void>;
  /** Forget what a connection showed (after sign-in or an edit), keeping nothing stale. */
  invalidate(connectionId: string): void;
}

export function descriptionKey(connectionId: string, table: string): string {
  return `${connectionId}\u0000${table}`;
}

export const useTablesStore = create<TablesStore>()((set, get) => ({
  lists: {},
  descriptions: {},

  async loadList(connectionId) {
    // Keep the old rows visible while reloading, so a refresh does not flash an empty state.
    const previous = get().lists[connectionId]?.value;
    set((state) => ({ lists: { ...state.lists, [connectionId]: { status: 'loading', value: previous } } }));
    const envelope = await call('tables:list', { connectionId });
    const next: Loadable<TableSummary[]> = envelope.ok
      ? { status: 'ready', value: envelope.value }
      : { status: 'error', error: envelope.error, value: previous };
    set((state) => ({ lists: { ...state.lists, [connectionId]: next } }));
  },

  async loadDescription(connectionId, table) {
    const key = descriptionKey(connectionId, table);
    const previous = get().descriptions[key]?.value;
    set((state) => ({
      descriptions: { ...state.descriptions, [key]: { status: 'loading', value: previous } },
    }));
    const envelope = await call('tables:describe', { connectionId, table });
    const next: Loadable<TableDescription> = envelope.ok
      ? { status: 'ready', value: envelope.value }
      : { status: 'error', error: envelope.error, value: previous };
    set((state) => ({ descriptions: { ...state.descriptions, [key]: next } }));
  },

  invalidate(connectionId) {
    set((state) => {
      const { [connectionId]: _list, ...lists } = state.lists;
      const prefix = `${connectionId}\u0000`;
      const descriptions = Object.fromEntries(
        Object.entries(state.descriptions).filter(([key]) => !key.startsWith(prefix)),
      );
      return { lists, descriptions };
    });
  },
}));
