import { useEffect } from 'react';
import { descriptionKey, useTablesStore, type Loadable, type TableDescription } from './store';
import type { TableSummary } from '../../../shared/ipc';

/** The connection's tables, loaded on first use and again after an invalidate (sign-in, edit). */
export function useTableList(connectionId: string): Loadable<TableSummary[]> | undefined {
  const list = useTablesStore((state) => state.lists[connectionId]);
  const load = useTablesStore((state) => state.loadList);
  useEffect(() => {
    if (!list) void load(connectionId);
  }, [list, load, connectionId]);
  return list;
}

export function useTableDescription(
  connectionId: string,
  table: string,
): Loadable<TableDescription> | undefined {
  const description = useTablesStore((state) => state.descriptions[descriptionKey(connectionId, table)]);
  const load = useTablesStore((state) => state.loadDescription);
  useEffect(() => {
    if (!description) void load(connectionId, table);
  }, [description, load, connectionId, table]);
  return description;
}
