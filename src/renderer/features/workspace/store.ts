import { create } from 'zustand';
import { splitConnectionId } from '../../../shared/dynamo/regions';
import type { SetAsideNotice } from '../../../shared/ipc/data-files';

/**
 * Tab ids: the home tab (the table list), `table:<name>` and `tool:<id>`. DynamoDB table names
 * cannot contain ":", so the prefixes never collide with a table.
 */
export const homeTab = 'home';
export const tableTabId = (table: string): string => `table:${table}`;
export const toolTabId = (tool: string): string => `tool:${tool}`;

/**
 * An open table's key: its name, or `<name>@<region>` for a table of another region than the
 * connection's (DynamoDB table names never hold "@").
 */
export const tableKey = (name: string, region?: string): string => (region ? `${name}@${region}` : name);

export function splitTableKey(key: string): { name: string; region?: string } {
  const at = key.lastIndexOf('@');
  return at <= 0 ? { name: key } : { name: key.slice(0, at), region: key.slice(at + 1) };
}

/** The key of a table shown through `connectionId`, which names a region when it is another one. */
export function tableKeyIn(connectionId: string, name: string): string {
  return tableKey(name, splitConnectionId(connectionId).region);
}

export interface ConnectionTabs {
  openTables: string[];
  active: string;
  /** The view chosen inside each open table (Overview, Items, …), keyed by table name. */
  tableViews: Record<string, string>;
}

interface WorkspaceStore {
  activeConnectionId?: string;
  /**
   * Open tabs per connection, kept in memory while the user is on the picker or signing in
   * again, so coming back (or a fresh SSO session) finds the same tabs.
   */
  tabs: Record<string, ConnectionTabs>;
  openConnection(connectionId: string): void;
  closeConnection(): void;
  openTable(table: string): void;
  closeTable(table: string): void;
  /**
   * A table of `connectionId` (its base id) was deleted: its tab closes, and when the user was on
   * it the table list takes its place (not the neighbour tab, which would look like a surprise
   * table); `notice` says what happened until the next change of tab.
   */
  closeDeletedTable(connectionId: string, table: string, notice: string): void;
  activate(tab: string): void;
  setTableView(table: string, view: string): void;
  forgetConnection(connectionId: string): void;
  /** The saved workspace file, when it could not be read and main set it aside. */
  setAside?: SetAsideNotice;
  dismissSetAside(): void;
  /** What just happened to the workspace that no view shows any longer ("Table X deleted."). */
  notice?: WorkspaceNotice;
  dismissNotice(): void;
}

export interface WorkspaceNotice {
  connectionId: string;
  text: string;
}

export const emptyTabs: ConnectionTabs = { openTables: [], active: homeTab, tableViews: {} };

type Change = (tabs: ConnectionTabs) => ConnectionTabs;

function updateTabs(state: WorkspaceStore, change: Change): Partial<WorkspaceStore> {
  const id = state.activeConnectionId;
  if (!id) return {};
  return { tabs: { ...state.tabs, [id]: change(state.tabs[id] ?? emptyTabs) } };
}

export const useWorkspaceStore = create<WorkspaceStore>()((set) => ({
  activeConnectionId: undefined,
  tabs: {},
  openConnection(connectionId) {
    set((state) => ({
      activeConnectionId: connectionId,
      tabs: state.tabs[connectionId] ? state.tabs : { ...state.tabs, [connectionId]: emptyTabs },
    }));
  },
  closeConnection() {
    set({ activeConnectionId: undefined });
  },
  openTable(table) {
    set((state) => ({
      ...updateTabs(state, (tabs) => ({
        ...tabs,
        openTables: tabs.openTables.includes(table) ? tabs.openTables : [...tabs.openTables, table],
        active: tableTabId(table),
      })),
      notice: undefined,
    }));
  },
  closeTable(table) {
    set((state) =>
      updateTabs(state, (tabs) => {
        const index = tabs.openTables.indexOf(table);
        const openTables = tabs.openTables.filter((t) => t !== table);
        const { [table]: _view, ...tableViews } = tabs.tableViews;
        // Closing the active tab moves to its left neighbour, like every tabbed editor.
        const neighbour = index > 0 ? openTables[index - 1] : undefined;
        const active =
          tabs.active === tableTabId(table) ? (neighbour ? tableTabId(neighbour) : homeTab) : tabs.active;
        return { openTables, active, tableViews };
      }),
    );
  },
  closeDeletedTable(connectionId, table, notice) {
    set((state) => {
      const tabs = state.tabs[connectionId] ?? emptyTabs;
      const { [table]: _view, ...tableViews } = tabs.tableViews;
      const active = tabs.active === tableTabId(table) ? homeTab : tabs.active;
      const next = { openTables: tabs.openTables.filter((t) => t !== table), active, tableViews };
      return { tabs: { ...state.tabs, [connectionId]: next }, notice: { connectionId, text: notice } };
    });
  },
  activate(tab) {
    set((state) => {
      const id = state.activeConnectionId;
      // A notice is about the moment: it goes when the user moves to another tab.
      const isMove = id !== undefined && (state.tabs[id] ?? emptyTabs).active !== tab;
      return {
        ...updateTabs(state, (tabs) => ({ ...tabs, active: tab })),
        ...(isMove ? { notice: undefined } : {}),
      };
    });
  },
  setTableView(table, view) {
    set((state) =>
      updateTabs(state, (tabs) => ({ ...tabs, tableViews: { ...tabs.tableViews, [table]: view } })),
    );
  },
  forgetConnection(connectionId) {
    set((state) => {
      const { [connectionId]: _removed, ...tabs } = state.tabs;
      const activeConnectionId =
        state.activeConnectionId === connectionId ? undefined : state.activeConnectionId;
      return { tabs, activeConnectionId };
    });
  },
  dismissSetAside() {
    set({ setAside: undefined });
  },
  dismissNotice() {
    set({ notice: undefined });
  },
}));

export function useActiveTabs(): ConnectionTabs {
  return useWorkspaceStore((state) =>
    state.activeConnectionId ? (state.tabs[state.activeConnectionId] ?? emptyTabs) : emptyTabs,
  );
}
