import { create } from 'zustand';
import type { AppError, Progress } from '../../../shared/ipc';
import type { ReadSpec, ViewSpec } from '../../../shared/ipc/query';
import type { KeySchema } from '../../../shared/ipc/tables';
import { call, newRequestId } from '../../ipc/client';
import { onOperation } from '../operations/store';

export interface GridSort {
  column: string;
  descending: boolean;
}

/** One table's Items tab: the result set on screen and how it is shown. */
export interface ItemsTableState {
  resultSetId?: string;
  operation?: 'Query' | 'Scan';
  requestId?: string;
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'error';
  progress?: Progress;
  error?: AppError;
  cursor?: string;
  /** Rows in the result set, and in the current view (sorted/filtered) when there is one. */
  fetched: number;
  viewId?: string;
  viewTotal?: number;
  entities?: Record<string, number>;
  /** Bumped whenever rows change meaning (new query, new view), so the grid drops its cache. */
  version: number;
  sort: GridSort[];
  text: string;
  entityFilter: string[];
  isGrouped: boolean;
  hiddenColumns: string[];
  /** The last read, so "load more" repeats it from the cursor. */
  lastRead?: { spec: ReadSpec; pageSize: number; maxItems: number; untilMatches: boolean };
}

export const emptyItemsState: ItemsTableState = {
  status: 'idle',
  fetched: 0,
  version: 0,
  sort: [],
  text: '',
  entityFilter: [],
  isGrouped: false,
  hiddenColumns: [],
};

export function itemsKey(connectionId: string, table: string): string {
  return `${connectionId}\u0000${table}`;
}

interface RunOptions {
  connectionId: string;
  table: string;
  keys: KeySchema;
  read: NonNullable<ItemsTableState['lastRead']>;
  isMore?: boolean;
}

interface ItemsStore {
  tables: Record<string, ItemsTableState>;
  run(options: RunOptions): Promise<void>;
  cancel(connectionId: string, table: string): Promise<void>;
  patch(key: string, change: Partial<ItemsTableState>): void;
  applyView(connectionId: string, table: string, keys: KeySchema): Promise<void>;
}

function hasView(state: ItemsTableState): boolean {
  return (
    state.sort.length > 0 || state.text.trim() !== '' || state.entityFilter.length > 0 || state.isGrouped
  );
}

export const useItemsStore = create<ItemsStore>()((set, get) => ({
  tables: {},

  patch(key, change) {
    set((state) => ({
      tables: { ...state.tables, [key]: { ...(state.tables[key] ?? emptyItemsState), ...change } },
    }));
  },

  async run({ connectionId, table, keys, read, isMore }) {
    const key = itemsKey(connectionId, table);
    const previous = get().tables[key] ?? emptyItemsState;
    const requestId = newRequestId('items');
    const resultSetId = isMore ? previous.resultSetId : undefined;
    if (!isMore && previous.resultSetId) void call('resultsets:drop', { resultSetId: previous.resultSetId });
    get().patch(key, {
      requestId,
      status: 'running',
      error: undefined,
      progress: undefined,
      lastRead: read,
      ...(isMore
        ? {}
        : {
            resultSetId: undefined,
            fetched: 0,
            viewId: undefined,
            viewTotal: undefined,
            cursor: undefined,
            version: previous.version + 1,
          }),
    });
    // A fast scan sends dozens of page events a second: the screen takes the latest once a frame.
    let pending: Partial<ItemsTableState> | undefined;
    const flush = (): void => {
      if (pending) get().patch(key, pending);
      pending = undefined;
    };
    const later = (change: Partial<ItemsTableState>): void => {
      if (!pending) requestAnimationFrame(flush);
      pending = { ...pending, ...change };
    };
    const stop = onOperation(requestId, (event) => {
      if (event.type === 'page') later({ fetched: event.total });
      else if (event.type === 'progress') later({ progress: event.progress });
      else if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') {
        stop();
        flush();
        get().patch(key, {
          status: event.type,
          cursor: event.cursor,
          ...(event.type === 'error' ? { error: event.error } : { progress: event.progress }),
        });
        if (hasView(get().tables[key] ?? emptyItemsState)) void get().applyView(connectionId, table, keys);
      }
    });
    const started = await call('query:start', {
      connectionId,
      table,
      requestId,
      spec: read.spec,
      pageSize: read.pageSize,
      maxItems: read.maxItems,
      untilMatches: read.untilMatches,
      ...(isMore && previous.cursor ? { cursor: previous.cursor } : {}),
      ...(resultSetId ? { resultSetId } : {}),
    });
    if (!started.ok) {
      stop();
      get().patch(key, { status: 'error', error: started.error });
      return;
    }
    get().patch(key, { resultSetId: started.value.resultSetId, operation: started.value.operation });
  },

  async cancel(connectionId, table) {
    const requestId = get().tables[itemsKey(connectionId, table)]?.requestId;
    if (requestId) await call('ops:cancel', { requestId });
  },

  async applyView(connectionId, table, keys) {
    const key = itemsKey(connectionId, table);
    const state = get().tables[key] ?? emptyItemsState;
    if (!state.resultSetId) return;
    if (!hasView(state)) {
      get().patch(key, { viewId: undefined, viewTotal: undefined, version: state.version + 1 });
      return;
    }
    const grouping = state.isGrouped
      ? [
          { column: keys.partitionKey.name, descending: false },
          ...(keys.sortKey ? [{ column: keys.sortKey.name, descending: false }] : []),
        ]
      : [];
    const spec: ViewSpec = {
      sort: [...grouping, ...state.sort.filter((s) => !grouping.some((g) => g.column === s.column))].slice(
        0,
        4,
      ),
      ...(state.text.trim() ? { text: state.text.trim() } : {}),
      ...(state.entityFilter.length > 0 ? { entities: state.entityFilter } : {}),
      keys,
    };
    const envelope = await call('resultsets:view', { resultSetId: state.resultSetId, spec });
    const now = get().tables[key] ?? emptyItemsState;
    if (!envelope.ok) get().patch(key, { error: envelope.error });
    else
      get().patch(key, {
        viewId: envelope.value.viewId,
        viewTotal: envelope.value.total,
        entities: envelope.value.entities,
        version: now.version + 1,
      });
  },
}));

export function useItemsTable(connectionId: string, table: string): ItemsTableState {
  return useItemsStore((state) => state.tables[itemsKey(connectionId, table)] ?? emptyItemsState);
}
