import { create } from 'zustand';
import type { CollapseChange } from '../../../shared/dynamo/collapse-state';
import type { AppError, Progress } from '../../../shared/ipc';
import type { ResultSetChangeEvent } from '../../../shared/ipc/operations';
import type { ReadSpec, ViewSpec } from '../../../shared/ipc/query';
import type { KeySchema } from '../../../shared/ipc/tables';
import { call, newRequestId } from '../../ipc/client';
import { cancelLongWork, startLongWork } from '../operations/long-work';
import { forgetCollapseRequests, requestCollapse } from './collapse-requests';
import { keepFirstWindow, showReplacedRows } from './row-cache';
import { addProgress } from './progress-sum';

export type { CollapseChange };

export interface GridSort {
  column: string;
  descending: boolean;
}

/** Bumped when the grid's positions from `from` on show other rows than before. */
export interface GridLayout {
  revision: number;
  from: number;
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
  /** What the shown view was built from and how many rows it held: a rebuild that matches it
   * shows the same rows at the same positions, so a selection made meanwhile stays. */
  viewBasis?: string;
  viewTotal?: number;
  entities?: Record<string, number>;
  /** In item-collection mode: collections and items in the view (viewTotal counts headers too). */
  collections?: number;
  viewItems?: number;
  /** The result set's change counter of the sizes shown: answers that come back older are dropped. */
  sizesSeq?: number;
  /** Bumped whenever rows change meaning (new query, a view of other rows), so the grid drops its cache. */
  version: number;
  /** Bumped when some positions show other rows within the same view (see GridLayout). */
  layout?: GridLayout;
  sort: GridSort[];
  text: string;
  entityFilter: string[];
  isGrouped: boolean;
  hiddenColumns: string[];
  /** Bumped when writes DynoTable made changed rows of the result set in place. */
  written?: number;
  /** A write may have changed which rows the read returns in a way DynoTable could not evaluate. */
  isStale?: boolean;
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
  /** The table's keys; a table's first open starts its Scan before they are known. */
  keys?: KeySchema;
  read: NonNullable<ItemsTableState['lastRead']>;
  isMore?: boolean;
}

interface ItemsStore {
  tables: Record<string, ItemsTableState>;
  run(options: RunOptions): Promise<void>;
  /** Refresh: the last read again, as it was started (none while one runs, or before the first). */
  readAgain(connectionId: string, table: string, keys?: KeySchema): void;
  cancel(connectionId: string, table: string): Promise<void>;
  patch(key: string, change: Partial<ItemsTableState>): void;
  applyView(connectionId: string, table: string, keys: KeySchema): Promise<void>;
  setCollapsed(connectionId: string, table: string, change: CollapseChange): Promise<void>;
  /** Rows per entity type over the whole result set, read only while no view is shown or coming. */
  readEntities(
    connectionId: string,
    table: string,
    keys: KeySchema,
  ): Promise<Record<string, number> | undefined>;
  /** Reads a collection view's sizes again after rows streamed in, at most one call at a time. */
  refreshCollections(key: string): void;
  /** Writes DynoTable made changed these result sets: counts follow, the grid reads its rows again. */
  applyWrites(changes: ResultSetChangeEvent[]): void;
}

/**
 * Collection sizes are read at most this often while a read streams: each read lays out every
 * collection in the worker, which is busy encoding pages, and counts need not move faster.
 */
const REFRESH_MS = 250;

/** Per table: a sizes call in flight or resting, and whether pages arrived meanwhile. */
const refreshes = new Map<string, { isBusy: boolean; isWanted: boolean }>();

/**
 * The worker keeps views by name: the grid's (rebuilt in place, so a collapse or window naming
 * it never meets a replaced id) and the entity counts' (which then leave the grid's alone).
 * Calls go out at once and may arrive and answer in any order (browser mode sends each as its
 * own HTTP request): builds carry a revision the worker will not go back from, and every answer
 * with sizes carries the set's change counter, so the newest wins on both sides.
 */
const GRID_VIEW = 'grid';
const ENTITIES_VIEW = 'entities';
let lastRevision = Date.now();
/** Per table: the newest build sent, and the newest whose answer was taken. */
const builds = new Map<string, { sent: number; answered?: number }>();
/**
 * Per table: the keys the page last built a view with. A read started before the table's
 * description arrived rebuilds the view it ends under with these (a view is only made from the
 * grid, which waits for the description).
 */
const viewKeys = new Map<string, KeySchema>();

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
    // Load more continues the same read: its cost line counts every page since the first, not
    // only the pages of the latest request.
    const before = isMore ? previous.progress : undefined;
    const total = (progress: Progress): Progress => (before ? addProgress(before, progress) : progress);
    if (!isMore && previous.resultSetId) {
      void call('resultsets:drop', { resultSetId: previous.resultSetId });
      forgetCollapseRequests(previous.resultSetId);
    }
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
            viewBasis: undefined,
            viewTotal: undefined,
            viewItems: undefined,
            entities: undefined,
            collections: undefined,
            sizesSeq: undefined,
            isStale: undefined,
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
    const work = startLongWork(
      'query:start',
      {
        connectionId,
        table,
        spec: read.spec,
        pageSize: read.pageSize,
        maxItems: read.maxItems,
        untilMatches: read.untilMatches,
        ...(isMore && previous.cursor ? { cursor: previous.cursor } : {}),
        ...(resultSetId ? { resultSetId } : {}),
      },
      {
        requestId,
        onEvent: (event) => {
          if (event.type === 'page') {
            later({ fetched: event.total });
            // The first rows came with the event: show them now, not on the next frame.
            if (event.first) {
              keepFirstWindow(event.resultSetId, event.first);
              flush();
            }
            get().refreshCollections(key);
          } else if (event.type === 'progress') later({ progress: total(event.progress) });
        },
        onStarted: (answer) =>
          get().patch(key, { resultSetId: answer.resultSetId, operation: answer.operation }),
        onEnd: (ending) => {
          if (ending.type === 'failed' && ending.isRefused) {
            get().patch(key, { status: 'error', error: ending.error });
            return;
          }
          flush();
          get().patch(key, {
            status: ending.type === 'failed' ? 'error' : ending.type,
            cursor: ending.cursor,
            ...(ending.type === 'failed' ? { error: ending.error } : { progress: total(ending.progress) }),
          });
          const now = get().tables[key] ?? emptyItemsState;
          // A collection view takes in every row as it streams, also one still being built (the
          // sizes read waits for it in the lane); other views are rebuilt with the rows.
          const keysNow = keys ?? viewKeys.get(key);
          if (now.isGrouped) get().refreshCollections(key);
          else if (hasView(now) && keysNow) void get().applyView(connectionId, table, keysNow);
        },
      },
    );
    // Item collections follow the stream from the start (the worker adds each page to them).
    const keysNow = keys ?? viewKeys.get(key);
    if ((await work.started) && !isMore && get().tables[key]?.isGrouped && keysNow)
      await get().applyView(connectionId, table, keysNow);
  },

  applyWrites(changes) {
    for (const { resultSetId, replaced } of changes) if (replaced) showReplacedRows(resultSetId, replaced);
    const byResultSet = new Map(changes.map((change) => [change.resultSetId, change]));
    for (const [key, state] of Object.entries(get().tables)) {
      const change = state.resultSetId ? byResultSet.get(state.resultSetId) : undefined;
      if (!change) continue;
      const view = state.viewId ? change.views.find((v) => v.viewId === state.viewId) : undefined;
      get().patch(key, {
        fetched: change.total,
        isStale: change.isStale,
        written: (state.written ?? 0) + 1,
        ...(view ? sizesIfNewer(state, view.seq, view) : {}),
        // Any position may show another row now; blocks on screen stay until their fresh copies arrive.
        layout: { revision: (state.layout?.revision ?? 0) + 1, from: 0 },
      });
    }
  },

  readAgain(connectionId, table, keys) {
    const { lastRead, status } = get().tables[itemsKey(connectionId, table)] ?? emptyItemsState;
    if (lastRead && status !== 'running') void get().run({ connectionId, table, keys, read: lastRead });
  },

  async cancel(connectionId, table) {
    const requestId = get().tables[itemsKey(connectionId, table)]?.requestId;
    if (requestId) await cancelLongWork(requestId);
  },

  applyView(connectionId, table, keys) {
    const key = itemsKey(connectionId, table);
    viewKeys.set(key, keys);
    return buildView(key, keys);
  },

  async setCollapsed(connectionId, table, change) {
    const key = itemsKey(connectionId, table);
    const { resultSetId, isGrouped } = get().tables[key] ?? emptyItemsState;
    if (!resultSetId || !isGrouped) return;
    // Headers on screen show it at once. The worker keeps it with the result set even when it
    // arrives before the collection view being built, which then takes it from there.
    requestCollapse(resultSetId, change);
    const envelope = await call('resultsets:collections', {
      resultSetId,
      viewId: GRID_VIEW,
      collapse: change,
    });
    const now = get().tables[key] ?? emptyItemsState;
    if (now.resultSetId !== resultSetId) return;
    const build = builds.get(key);
    if (envelope.ok) get().patch(key, withSizes(now, envelope.value, envelope.value.at ?? 0));
    else if (!build || build.answered === build.sent) get().patch(key, { error: envelope.error });
  },

  async readEntities(connectionId, table, keys) {
    const state = get().tables[itemsKey(connectionId, table)] ?? emptyItemsState;
    // The grid's own view reports them, and one is shown or on its way.
    if (!state.resultSetId || state.viewId || hasView(state)) return undefined;
    const envelope = await call('resultsets:view', {
      resultSetId: state.resultSetId,
      spec: { keys },
      viewId: ENTITIES_VIEW,
    });
    return envelope.ok ? envelope.value.entities : undefined;
  },

  refreshCollections(key) {
    const state = get().tables[key] ?? emptyItemsState;
    if (!state.resultSetId || !state.isGrouped) return;
    const refresh = refreshes.get(key) ?? { isBusy: false, isWanted: false };
    refreshes.set(key, refresh);
    if (refresh.isBusy) {
      refresh.isWanted = true;
      return;
    }
    refresh.isBusy = true;
    void readSizes(key).then(rest, rest);
    function rest(): void {
      setTimeout(() => {
        refreshes.delete(key);
        if (refresh.isWanted) get().refreshCollections(key);
      }, REFRESH_MS);
    }
  },
}));

async function readSizes(key: string): Promise<void> {
  const { resultSetId, viewId, isGrouped } = useItemsStore.getState().tables[key] ?? emptyItemsState;
  if (!resultSetId || !viewId || !isGrouped) return;
  const envelope = await call('resultsets:collections', { resultSetId, viewId });
  const now = useItemsStore.getState().tables[key] ?? emptyItemsState;
  if (now.resultSetId === resultSetId && envelope.ok && envelope.value.items !== now.viewItems)
    // New rows may land in any collection, so every position may show another row now.
    useItemsStore.getState().patch(key, withSizes(now, envelope.value, 0));
}

/** Builds the view the tab's sort, filters and item-collection switch ask for, as they are now. */
async function buildView(key: string, keys: KeySchema): Promise<void> {
  const { tables, patch } = useItemsStore.getState();
  const state = tables[key] ?? emptyItemsState;
  if (!state.resultSetId) return;
  const revision = ++lastRevision;
  const build: { sent: number; answered?: number } = { sent: revision };
  builds.set(key, build);
  if (!hasView(state)) {
    // Also a revision: a build still on its way must not bring the view back.
    build.answered = revision;
    patch(key, {
      viewId: undefined,
      viewBasis: undefined,
      viewTotal: undefined,
      viewItems: undefined,
      collections: undefined,
      version: state.version + 1,
    });
    return;
  }
  const spec: ViewSpec = {
    sort: state.sort.slice(0, 4),
    ...(state.isGrouped ? { collections: true } : {}),
    ...(state.text.trim() ? { text: state.text.trim() } : {}),
    ...(state.entityFilter.length > 0 ? { entities: state.entityFilter } : {}),
    keys,
  };
  const envelope = await call('resultsets:view', {
    resultSetId: state.resultSetId,
    spec,
    viewId: GRID_VIEW,
    revision,
  });
  const now = useItemsStore.getState().tables[key] ?? emptyItemsState;
  // A new read started, or the user changed the view again and that build is on its way:
  // showing this one meanwhile (a plain grid between "off" and "on") would only flash.
  if (now.resultSetId !== state.resultSetId || builds.get(key)?.sent !== revision) return;
  build.answered = revision;
  if (!envelope.ok) {
    patch(key, { error: envelope.error });
    return;
  }
  const { viewId, total, items, seq } = envelope.value;
  const viewBasis = JSON.stringify([spec, items ?? total]);
  patch(key, {
    viewId,
    viewBasis,
    ...sizesIfNewer(now, seq, envelope.value),
    version: viewBasis === now.viewBasis ? now.version : now.version + 1,
  });
}

export function useItemsTable(connectionId: string, table: string): ItemsTableState {
  return useItemsStore((state) => state.tables[itemsKey(connectionId, table)] ?? emptyItemsState);
}

// What a view's answer changes in a table's state: sizes only when newer than those shown.

interface CollectionSizes {
  total: number;
  collections: number;
  items: number;
  entities: Record<string, number>;
}

/** A view's new sizes, unless an answer with a later change counter was shown already. */
function sizesIfNewer(
  state: ItemsTableState,
  seq: number | undefined,
  sizes: { total: number; collections?: number; items?: number; entities?: Record<string, number> },
): Partial<ItemsTableState> {
  if (seq !== undefined && state.sizesSeq !== undefined && seq < state.sizesSeq) return {};
  return {
    viewTotal: sizes.total,
    collections: sizes.collections,
    viewItems: sizes.items,
    entities: sizes.entities,
    ...(seq === undefined ? {} : { sizesSeq: seq }),
  };
}

/** A collection view's new sizes; positions from `from` on show other rows now. */
function withSizes(
  state: ItemsTableState,
  sizes: CollectionSizes & { seq?: number },
  from: number,
): Partial<ItemsTableState> {
  const change = sizesIfNewer(state, sizes.seq, sizes);
  if (!('viewTotal' in change)) return {};
  return { ...change, layout: { revision: (state.layout?.revision ?? 0) + 1, from } };
}

function hasView(state: ItemsTableState): boolean {
  return (
    state.sort.length > 0 || state.text.trim() !== '' || state.entityFilter.length > 0 || state.isGrouped
  );
}
