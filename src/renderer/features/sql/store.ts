import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import {
  type SqlCatalogOutput,
  type SqlHistoryEntry as HistoryEntry,
  type SqlResultSummary,
  type SqlSavedQuery as SavedQuery,
  sqlResultSummarySchema,
} from '../../../shared/ipc/sql';
import type { SqlPlan } from '../../../shared/sql/plan';
import { call, newRequestId } from '../../ipc/client';
import { onOperation } from '../operations/store';
import type { ChartKind } from './chart-data';
import type { StatementRange } from './statement-at';

export type { HistoryEntry, SavedQuery };

/** An error of the last plan or run, with where its statement starts in the editor. */
export interface PositionedError {
  error: AppError;
  base: number;
}

export type ResultView = 'results' | 'plan';

export interface SqlTab {
  text: string;
  catalog?: SqlCatalogOutput;
  catalogError?: AppError;
  plan?: SqlPlan;
  isPlanning: boolean;
  requestId?: string;
  summary?: SqlResultSummary;
  error?: PositionedError;
  cancelled: boolean;
  refresh: boolean;
  view: ResultView;
  /** Undefined: the kind the data suggests. */
  chartKind?: ChartKind;
  /** Grouped results show a chart beside the grid unless hidden. */
  isChartHidden: boolean;
  history: HistoryEntry[];
  saved: SavedQuery[];
}

const STARTER = `-- Ctrl/Cmd+Enter runs the statement under the cursor (or the selection).
SELECT *
FROM `;

export const emptyTab: SqlTab = {
  text: STARTER,
  isPlanning: false,
  cancelled: false,
  refresh: false,
  view: 'results',
  isChartHidden: false,
  history: [],
  saved: [],
};

interface SqlStore {
  tabs: Record<string, SqlTab>;
  setText(connectionId: string, text: string): void;
  update(connectionId: string, change: Partial<SqlTab>): void;
  loadCatalog(connectionId: string, refresh?: boolean): Promise<void>;
  loadFiles(connectionId: string): Promise<void>;
  plan(connectionId: string, statement: StatementRange): Promise<void>;
  run(connectionId: string, statement: StatementRange): Promise<void>;
  cancel(connectionId: string): Promise<void>;
  saveQuery(connectionId: string, name: string, sql: string): Promise<AppError | undefined>;
  deleteQuery(connectionId: string, name: string): Promise<void>;
}

/**
 * The SQL workbench per connection: editor text, last plan and result summary, errors with
 * their position, history and saved queries. Rows never live here: the grid and chart ask
 * main for windows of the result.
 */
export const useSqlStore = create<SqlStore>()((set, get) => {
  const tab = (id: string): SqlTab => get().tabs[id] ?? emptyTab;
  const update = (id: string, change: Partial<SqlTab>): void =>
    set((state) => ({ tabs: { ...state.tabs, [id]: { ...(state.tabs[id] ?? emptyTab), ...change } } }));
  return {
    tabs: {},
    setText: (id, text) => update(id, { text }),
    update,
    async loadCatalog(id, refresh) {
      const result = await call('sql:catalog', { connectionId: id, refresh });
      if (result.ok) update(id, { catalog: result.value, catalogError: undefined });
      else update(id, { catalogError: result.error });
    },
    async loadFiles(id) {
      const [history, saved] = await Promise.all([
        call('sql:history', { connectionId: id }),
        call('sql:savedQueries', { connectionId: id }),
      ]);
      update(id, {
        history: history.ok ? history.value : tab(id).history,
        saved: saved.ok ? saved.value : tab(id).saved,
      });
    },
    async plan(id, statement) {
      update(id, { isPlanning: true, error: undefined, view: 'plan' });
      const result = await call('sql:plan', { connectionId: id, sql: statement.text });
      if (result.ok) update(id, { plan: result.value, isPlanning: false });
      else
        update(id, {
          isPlanning: false,
          plan: undefined,
          error: { error: result.error, base: statement.from },
        });
    },
    async run(id, statement) {
      const requestId = newRequestId('sql');
      update(id, { requestId, error: undefined, cancelled: false });
      const stop = onOperation(requestId, (event) => {
        if (event.type === 'done') {
          const parsed = sqlResultSummarySchema.safeParse(event.value);
          if (parsed.success) update(id, { summary: parsed.data, requestId: undefined, view: 'results' });
          else update(id, { requestId: undefined });
          void get().loadFiles(id);
        } else if (event.type === 'error')
          update(id, { requestId: undefined, error: { error: event.error, base: statement.from } });
        else if (event.type === 'cancelled') update(id, { requestId: undefined, cancelled: true });
        if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled') stop();
      });
      const started = await call('sql:run', {
        connectionId: id,
        sql: statement.text,
        requestId,
        refresh: tab(id).refresh,
      });
      if (!started.ok) {
        stop();
        update(id, { requestId: undefined, error: { error: started.error, base: statement.from } });
      }
    },
    async cancel(id) {
      const requestId = tab(id).requestId;
      if (requestId) await call('ops:cancel', { requestId });
    },
    async saveQuery(id, name, sql) {
      const result = await call('sql:saveQuery', { connectionId: id, name, sql });
      if (!result.ok) return result.error;
      await get().loadFiles(id);
      return undefined;
    },
    async deleteQuery(id, name) {
      await call('sql:deleteQuery', { connectionId: id, name });
      await get().loadFiles(id);
    },
  };
});

export function useSqlTab(connectionId: string): SqlTab {
  return useSqlStore((state) => state.tabs[connectionId] ?? emptyTab);
}
