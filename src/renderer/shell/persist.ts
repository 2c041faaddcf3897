import { connectionInRegion, splitConnectionId } from '../../shared/dynamo/regions';
import type { ConnectionWorkspace, WorkspaceSnapshot } from '../../shared/ipc/workspace';
import { call } from '../ipc/client';
import { useConnectionsStore } from '../features/connections/store';
import { itemsKey } from '../features/items/store';
import { onBuilderChange, rememberBuilder, rememberedBuilder } from '../features/query/builder-memory';
import { initialBuilder, type BuilderState, type ConditionDraft } from '../features/query/builder-state';
import { useSqlStore } from '../features/sql/store';
import { useRegionListStore } from '../features/tables/region-store';
import { STARTER } from '../features/sql/statement-tabs';
import { emptyTabs, useWorkspaceStore, type ConnectionTabs } from '../features/workspace/store';

type Form = NonNullable<ConnectionWorkspace['tables'][number]['form']>;

const CONDITION_FIELDS = ['id', 'path', 'op', 'type', 'value', 'value2', 'sizeOp'] as const;

/** A saved form back into the builder: only known fields of the right type, the rest as new. */
function builderFrom(form: Form): BuilderState {
  const state: Record<string, unknown> = { ...initialBuilder };
  for (const [name, initial] of Object.entries(initialBuilder)) {
    if (!Object.hasOwn(form, name)) continue;
    const value = form[name];
    if (name === 'conditions' && Array.isArray(value))
      state[name] = value.filter((c) => CONDITION_FIELDS.every((f) => typeof c[f] === 'string'));
    // A multi-attribute key's further fields: objects of strings ({value} or {op, value, value2}).
    else if (Array.isArray(initial) && Array.isArray(value))
      state[name] = value.filter((c) => Object.values(c).every((v) => typeof v === 'string'));
    else if (typeof value === typeof initial) state[name] = value;
  }
  return state as unknown as BuilderState;
}

function formOf(builder: BuilderState): Form {
  const conditions = builder.conditions.map((c: ConditionDraft) => ({ ...c }));
  const morePartitionKeys = builder.morePartitionKeys.map((p) => ({ ...p }));
  const moreSortKeys = builder.moreSortKeys.map((d) => ({ ...d }));
  return { ...builder, conditions, morePartitionKeys, moreSortKeys };
}

export function workspaceSnapshot(): WorkspaceSnapshot {
  const { activeConnectionId, tabs } = useWorkspaceStore.getState();
  const { documents: sql, workbenchIds } = useSqlStore.getState();
  const { chosen } = useRegionListStore.getState();
  const ids = [
    ...new Set([
      ...Object.keys(tabs),
      ...Object.keys(sql),
      ...Object.keys(chosen),
      ...Object.keys(workbenchIds),
    ]),
  ];
  const connections = ids.map((connectionId): ConnectionWorkspace => {
    const open: ConnectionTabs = tabs[connectionId] ?? emptyTabs;
    const documents = sql[connectionId];
    // The untouched starter tab is not worth a line in the file.
    const isUntouched = documents?.tabs.length === 1 && documents.tabs[0]?.text === STARTER;
    const sqlRegion = Object.hasOwn(workbenchIds, connectionId)
      ? splitConnectionId(workbenchIds[connectionId] ?? connectionId).region
      : undefined;
    return {
      connectionId,
      active: open.active,
      tables: open.openTables.map((name) => {
        const builder = rememberedBuilder(itemsKey(connectionId, name));
        const view = Object.hasOwn(open.tableViews, name) ? open.tableViews[name] : undefined;
        return { name, ...(view ? { view } : {}), ...(builder ? { form: formOf(builder) } : {}) };
      }),
      ...(sqlRegion ? { sqlRegion } : {}),
      ...(documents && !isUntouched ? { sql: documents } : {}),
      ...(Object.hasOwn(chosen, connectionId) ? { regions: chosen[connectionId] } : {}),
    };
  });
  return { version: 1, ...(activeConnectionId ? { activeConnectionId } : {}), connections };
}

/**
 * The SQL tab's saved region, as long as it still means another region of a stored connection
 * (the connection may have been deleted or given an endpoint of its own since).
 */
function sqlWorkbenchIn(connectionId: string, region: string): string | undefined {
  const connection = useConnectionsStore.getState().connections.find((c) => c.id === connectionId);
  const regional = connection && connectionInRegion(connection, region);
  return regional && regional.id !== connectionId ? regional.id : undefined;
}

/**
 * Puts back the workspace saved last. The open connection is reopened only if it still exists
 * and can answer now: the playground after a restart is stopped until "Open playground", which
 * then finds its tabs as they were.
 */
export async function restoreWorkspace(): Promise<void> {
  const loaded = await call('workspace:load', {});
  if (!loaded.ok) return;
  const { snapshot, setAside } = loaded.value;
  if (setAside) useWorkspaceStore.setState({ setAside });
  if (!snapshot) return;
  const tabs: Record<string, ConnectionTabs> = {};
  const regions = Object.create(null) as Record<string, string[]>;
  const workbenchIds = Object.create(null) as Record<string, string>;
  for (const saved of snapshot.connections) {
    if (saved.regions && saved.regions.length > 0) regions[saved.connectionId] = saved.regions;
    const inRegion = saved.sqlRegion && sqlWorkbenchIn(saved.connectionId, saved.sqlRegion);
    if (inRegion) workbenchIds[saved.connectionId] = inRegion;
    const tableViews: Record<string, string> = Object.fromEntries(
      saved.tables.flatMap((t) => (t.view ? [[t.name, t.view]] : [])),
    );
    tabs[saved.connectionId] = {
      openTables: saved.tables.map((t) => t.name),
      active: saved.active,
      tableViews,
    };
    for (const table of saved.tables)
      if (table.form) rememberBuilder(itemsKey(saved.connectionId, table.name), builderFrom(table.form));
    if (saved.sql) useSqlStore.getState().restoreDocuments(saved.connectionId, saved.sql);
  }
  // A choice made in this session, before the snapshot arrived, wins over the saved one.
  useRegionListStore.setState((state) => ({ chosen: { ...regions, ...state.chosen } }));
  useSqlStore.setState((state) => ({ workbenchIds: { ...workbenchIds, ...state.workbenchIds } }));
  const { connections, playground } = useConnectionsStore.getState();
  const active = connections.find((c) => c.id === snapshot.activeConnectionId);
  const canOpen = active && (active.kind !== 'playground' || playground.state === 'running');
  useWorkspaceStore.setState((state) => ({
    tabs: { ...tabs, ...state.tabs },
    activeConnectionId: state.activeConnectionId ?? (canOpen ? active.id : undefined),
  }));
}

const SAVE_AFTER_MS = 400;

/** Saves the workspace a moment after each change of tabs, forms, SQL text and region, or listed regions. */
export function startWorkspaceSaving(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = JSON.stringify(workspaceSnapshot());
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const snapshot = workspaceSnapshot();
      const text = JSON.stringify(snapshot);
      if (text === last) return;
      last = text;
      void call('workspace:save', { snapshot });
    }, SAVE_AFTER_MS);
  };
  const stops = [
    useWorkspaceStore.subscribe(schedule),
    useSqlStore.subscribe((state, previous) => {
      if (state.documents !== previous.documents || state.workbenchIds !== previous.workbenchIds) schedule();
    }),
    onBuilderChange(schedule),
    useRegionListStore.subscribe((state, previous) => {
      if (state.chosen !== previous.chosen) schedule();
    }),
  ];
  return () => {
    if (timer) clearTimeout(timer);
    stops.forEach((stop) => stop());
  };
}
