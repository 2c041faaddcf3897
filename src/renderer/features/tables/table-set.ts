import { splitConnectionId } from '../../../shared/dynamo/regions';
// One of the two two-way feature pairs left (the import check allows three): a created or deleted
// table must reach SQL's catalog at once, and the workbench's region choice reads the table list's
// regions. Both are one call on a store; a shared layer in between would only forward them.
import { useSqlStore } from '../sql/store';
import { useRegionListStore } from './region-store';
import { useTablesStore } from './store';

/**
 * After DynoTable created or deleted a table: the table list is read again, and so is SQL's
 * catalog when a workbench of this connection has loaded one (autocomplete and the side panel
 * would otherwise keep offering a deleted table, or miss the new one). Main has already told the
 * SQL worker before the operation ended. A table list grouped by region is listed again too, for
 * a table of any of its regions (`connectionId` may be `<id>@<region>`).
 */
export function tableSetChanged(connectionId: string): void {
  void useTablesStore.getState().loadList(connectionId);
  const base = splitConnectionId(connectionId).connectionId;
  const grouped = useRegionListStore.getState().lists[base];
  if (grouped) void useRegionListStore.getState().load(base, grouped.regions);
  const sql = useSqlStore.getState();
  if (sql.connections[connectionId]?.catalog) void sql.loadCatalog(connectionId);
}
