import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import {
  type SqlCatalogOutput,
  type SqlHistoryEntry as HistoryEntry,
  type SqlResultSummary,
  type SqlSavedQuery as SavedQuery,
} from '../../../shared/ipc/sql';
import type { SqlPlan } from '../../../shared/sql/plan';
import type {
  AthenaPlan,
  AthenaSavedSettings,
  AthenaSettings,
  ScanLimitsInput,
} from '../../../shared/ipc/athena';
import { call } from '../../ipc/client';
import { cancelLongWork, type LongWorkStarter, startLongWork } from '../operations/long-work';
import type { ChartKind } from './chart-data';
import type { StatementRange } from './statement-at';
import * as docs from './statement-tabs';
import type { SqlDocuments } from './statement-tabs';

export type { HistoryEntry, SavedQuery };

/** An error of the last plan or run, with where its statement starts in the editor. */
export interface PositionedError {
  error: AppError;
  base: number;
}

export type ResultView = 'results' | 'plan';

/** What one statement tab last planned and ran. Never persisted: results live in main. */
export interface SqlRun {
  plan?: SqlPlan;
  isPlanning: boolean;
  requestId?: string;
  summary?: SqlResultSummary;
  error?: PositionedError;
  /** The plan shown is of an earlier statement: a later plan or run failed, or another statement ran. */
  isPlanStale: boolean;
  /** The results shown are of an earlier run: a later one failed. */
  isResultStale: boolean;
  /** The statement text the plan is of. */
  plannedText?: string;
  cancelled: boolean;
  view: ResultView;
  /** Undefined: the kind the data suggests. */
  chartKind?: ChartKind;
  /** Grouped results show a chart beside the grid unless hidden. */
  isChartHidden: boolean;
  /**
   * The local scan of this statement is past the limit: both paths are shown and nothing runs
   * until the user picks one (issue 17).
   */
  choice?: AthenaChoiceState;
  isChoosing?: boolean;
}

export interface AthenaChoiceState {
  plan: AthenaPlan;
  statement: StatementRange;
  /** The user asked for a new export though a recent one exists; `plan` counts it once replanned. */
  freshExport?: boolean;
  /** The plan for the current freshExport is on its way. */
  isReplanning?: boolean;
  /** The plan could not be made again; the figures shown are the earlier plan's. */
  replanError?: string;
}

/** How an Athena run gets its export: start one where none is recent, or a new one anyway. */
export interface AthenaExportChoice {
  startExport?: boolean;
  freshExport?: boolean;
}

/** What the workbench knows of a connection, shared by its tabs. */
export interface SqlConnectionState {
  catalog?: SqlCatalogOutput;
  catalogError?: AppError;
  refresh: boolean;
  history: HistoryEntry[];
  saved: SavedQuery[];
  /** The scan limit in force and the last Athena settings, as main keeps them. */
  athena?: AthenaSavedSettings;
}

export const emptyRun: SqlRun = {
  isPlanning: false,
  isPlanStale: false,
  isResultStale: false,
  cancelled: false,
  view: 'results',
  isChartHidden: false,
};
const emptyConnection: SqlConnectionState = { refresh: false, history: [], saved: [] };
/** A connection's first tab has a fixed id, so the same tab is found before and after its first edit. */
const firstDocuments = new Map<string, SqlDocuments>();
function initialFor(connectionId: string): SqlDocuments {
  let initial = firstDocuments.get(connectionId);
  if (!initial) {
    initial = docs.initialDocuments(`q-${connectionId}-1`);
    firstDocuments.set(connectionId, initial);
  }
  return initial;
}

interface SqlStore {
  /**
   * Statement tabs per connection: plain, serialisable data (ids, titles, text). This slice is
   * what workspace persistence saves and gives back through `restoreDocuments`.
   */
  documents: Record<string, SqlDocuments>;
  /** Per statement tab id. */
  runs: Record<string, SqlRun>;
  connections: Record<string, SqlConnectionState>;
  /**
   * The id each stored connection's workbench works through: `<id>@<region>` once the user picks
   * another region (or opens a table of one in SQL), so catalog, statements, runs and history are
   * that region's. Absent: the connection's own region.
   */
  workbenchIds: Record<string, string>;
  chooseWorkbench(connectionId: string, workbenchId: string): void;
  restoreDocuments(connectionId: string, documents: SqlDocuments): void;
  addTab(connectionId: string, text?: string): void;
  closeTab(connectionId: string, tabId: string): void;
  renameTab(connectionId: string, tabId: string, title: string): void;
  activateTab(connectionId: string, tabId: string): void;
  /** Sets the active tab's text. */
  setText(connectionId: string, text: string): void;
  updateRun(tabId: string, change: Partial<SqlRun>): void;
  setRefresh(connectionId: string, refresh: boolean): void;
  loadCatalog(connectionId: string, refresh?: boolean): Promise<void>;
  loadFiles(connectionId: string): Promise<void>;
  plan(connectionId: string, tabId: string, statement: StatementRange): Promise<void>;
  /** Runs locally unless the local scan is past the limit; then it asks first (`choice`). */
  run(connectionId: string, tabId: string, statement: StatementRange): Promise<void>;
  /** `chosen`: the user picked the local scan past the scan limit (main refuses it otherwise). */
  runLocal(connectionId: string, tabId: string, statement: StatementRange, chosen?: boolean): Promise<void>;
  runAthena(
    connectionId: string,
    tabId: string,
    statement: StatementRange,
    settings: AthenaSettings,
    exportChoice: AthenaExportChoice,
  ): Promise<void>;
  /** Plans the choice again with or without a fresh export, so its estimate says what runs. */
  setFreshExport(connectionId: string, tabId: string, freshExport: boolean): Promise<void>;
  cancel(tabId: string): Promise<void>;
  loadAthenaSettings(connectionId: string): Promise<void>;
  /** null: back to the default. */
  saveScanLimits(connectionId: string, limits: ScanLimitsInput | null): Promise<AppError | undefined>;
  saveQuery(connectionId: string, name: string, sql: string): Promise<AppError | undefined>;
  deleteQuery(connectionId: string, name: string): Promise<void>;
}

/**
 * The SQL workbench per connection: statement tabs (each with its last plan and result
 * summary, errors with their position), and the connection's catalog, history and saved
 * queries. Rows never live here: the grid and chart ask main for windows of the result.
 */
export const useSqlStore = create<SqlStore>()((set, get) => {
  const documentsOf = (id: string): SqlDocuments => get().documents[id] ?? initialFor(id);
  const changeDocuments = (id: string, change: (d: SqlDocuments) => SqlDocuments): void =>
    set((state) => ({
      documents: { ...state.documents, [id]: change(state.documents[id] ?? documentsOf(id)) },
    }));
  const runOf = (tabId: string): SqlRun => get().runs[tabId] ?? emptyRun;
  const updateRun = (tabId: string, change: Partial<SqlRun>): void =>
    set((state) => ({ runs: { ...state.runs, [tabId]: { ...(state.runs[tabId] ?? emptyRun), ...change } } }));
  const connectionOf = (id: string): SqlConnectionState => get().connections[id] ?? emptyConnection;
  const updateConnection = (id: string, change: Partial<SqlConnectionState>): void =>
    set((state) => ({
      connections: {
        ...state.connections,
        [id]: { ...(state.connections[id] ?? emptyConnection), ...change },
      },
    }));
  /** Starts one run (local or Athena) and follows its events into the tab. */
  const follow = async (
    id: string,
    tabId: string,
    statement: StatementRange,
    channel: 'sql:run' | 'athena:run',
    start: LongWorkStarter<'sql:run' | 'athena:run'>,
  ): Promise<void> => {
    const failed = (error: AppError): void =>
      updateRun(tabId, {
        requestId: undefined,
        error: { error, base: statement.from },
        // What is on screen now answers an earlier statement, not the one that failed.
        isPlanStale: runOf(tabId).plan !== undefined,
        isResultStale: runOf(tabId).summary !== undefined,
      });
    const work = startLongWork(channel, start, {
      prefix: channel === 'sql:run' ? 'sql' : 'athena',
      onEnd: (ending) => {
        if (ending.type === 'done') {
          if (ending.value)
            updateRun(tabId, {
              summary: ending.value,
              requestId: undefined,
              view: 'results',
              isResultStale: false,
              isPlanStale: runOf(tabId).isPlanStale || runOf(tabId).plannedText !== statement.text,
            });
          else updateRun(tabId, { requestId: undefined });
          void get().loadFiles(id);
        } else if (ending.type === 'failed') failed(ending.error);
        else updateRun(tabId, { requestId: undefined, cancelled: true });
      },
    });
    updateRun(tabId, { requestId: work.requestId, error: undefined, cancelled: false, choice: undefined });
    await work.started;
  };
  return {
    documents: {},
    runs: {},
    connections: {},
    workbenchIds: {},
    chooseWorkbench(connectionId, workbenchId) {
      set((state) => ({ workbenchIds: { ...state.workbenchIds, [connectionId]: workbenchId } }));
    },
    restoreDocuments(id, restored) {
      if (docs.isSqlDocuments(restored))
        set((state) => ({ documents: { ...state.documents, [id]: restored } }));
    },
    addTab: (id, text) => changeDocuments(id, (d) => docs.addTab(d, undefined, text)),
    closeTab(id, tabId) {
      const resultId = runOf(tabId).summary?.resultId;
      if (resultId) void call('sql:drop', { resultId });
      changeDocuments(id, (d) => docs.closeTab(d, tabId));
      set((state) => {
        const { [tabId]: _closed, ...runs } = state.runs;
        return { runs };
      });
    },
    renameTab: (id, tabId, title) => changeDocuments(id, (d) => docs.renameTab(d, tabId, title)),
    activateTab: (id, tabId) => changeDocuments(id, (d) => docs.activateTab(d, tabId)),
    setText: (id, text) => changeDocuments(id, (d) => docs.setTabText(d, docs.activeDocument(d).id, text)),
    updateRun,
    setRefresh: (id, refresh) => updateConnection(id, { refresh }),
    async loadCatalog(id, refresh) {
      const result = await call('sql:catalog', { connectionId: id, refresh });
      if (result.ok) updateConnection(id, { catalog: result.value, catalogError: undefined });
      else updateConnection(id, { catalogError: result.error });
    },
    async loadFiles(id) {
      const [history, saved] = await Promise.all([
        call('sql:history', { connectionId: id }),
        call('sql:savedQueries', { connectionId: id }),
      ]);
      updateConnection(id, {
        history: history.ok ? history.value : connectionOf(id).history,
        saved: saved.ok ? saved.value : connectionOf(id).saved,
      });
    },
    async plan(id, tabId, statement) {
      updateRun(tabId, { isPlanning: true, error: undefined, view: 'plan' });
      const result = await call('sql:plan', { connectionId: id, sql: statement.text });
      if (result.ok)
        updateRun(tabId, {
          plan: result.value,
          plannedText: statement.text,
          isPlanning: false,
          isPlanStale: false,
        });
      else
        updateRun(tabId, {
          isPlanning: false,
          isPlanStale: runOf(tabId).plan !== undefined,
          isResultStale: runOf(tabId).summary !== undefined,
          error: { error: result.error, base: statement.from },
        });
    },
    async run(id, tabId, statement) {
      updateRun(tabId, { isChoosing: true, choice: undefined, error: undefined });
      const checked = await call('athena:plan', { connectionId: id, sql: statement.text });
      updateRun(tabId, { isChoosing: false });
      if (checked.ok && checked.value.over.length > 0) {
        updateRun(tabId, { choice: { plan: checked.value, statement } });
        return;
      }
      // A statement the check cannot plan fails the same way in sql:run, with its position.
      await get().runLocal(id, tabId, statement);
    },
    runLocal(id, tabId, statement, chosen) {
      return follow(id, tabId, statement, 'sql:run', (requestId) =>
        call('sql:run', {
          connectionId: id,
          sql: statement.text,
          requestId,
          refresh: connectionOf(id).refresh,
          ...(chosen ? { local: true } : {}),
        }),
      );
    },
    async runAthena(id, tabId, statement, settings, exportChoice) {
      await follow(id, tabId, statement, 'athena:run', (requestId) =>
        call('athena:run', {
          connectionId: id,
          sql: statement.text,
          requestId,
          settings,
          ...(exportChoice.startExport ? { startExport: true } : {}),
          ...(exportChoice.freshExport ? { freshExport: true } : {}),
        }),
      );
      // Main remembers the settings a run started with; the next choice offers them.
      void get().loadAthenaSettings(id);
    },
    async setFreshExport(id, tabId, freshExport) {
      const before = runOf(tabId).choice;
      if (!before) return;
      updateRun(tabId, { choice: { ...before, freshExport, isReplanning: true, replanError: undefined } });
      const result = await call('athena:plan', {
        connectionId: id,
        sql: before.statement.text,
        ...(freshExport ? { freshExport: true } : {}),
      });
      const now = runOf(tabId).choice;
      // A later tick, or another statement's choice, has taken over: this answer is not theirs.
      if (now?.statement !== before.statement || now.freshExport !== freshExport) return;
      updateRun(tabId, {
        choice: result.ok
          ? { ...now, plan: result.value, isReplanning: false }
          : { ...now, isReplanning: false, replanError: result.error.message },
      });
    },
    async loadAthenaSettings(id) {
      const result = await call('athena:settings', { connectionId: id });
      if (result.ok) updateConnection(id, { athena: result.value });
    },
    async saveScanLimits(id, limits) {
      const result = await call('athena:saveSettings', { connectionId: id, limits });
      if (!result.ok) return result.error;
      updateConnection(id, { athena: result.value });
      return undefined;
    },
    async cancel(tabId) {
      const requestId = runOf(tabId).requestId;
      if (requestId) await cancelLongWork(requestId);
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

export function useSqlDocuments(connectionId: string): SqlDocuments {
  return useSqlStore((state) => state.documents[connectionId] ?? initialFor(connectionId));
}

export function useSqlRun(tabId: string): SqlRun {
  return useSqlStore((state) => state.runs[tabId] ?? emptyRun);
}

export function useSqlConnection(connectionId: string): SqlConnectionState {
  return useSqlStore((state) => state.connections[connectionId] ?? emptyConnection);
}
