import { useSqlStore } from '../sql/store';
import { useTablesStore } from './store';

/**
 * After DynoTable created or deleted a table: the table list is read again, and so is SQL's
 * catalog when a workbench of this connection has loaded one (autocomplete and the side panel
 * would otherwise keep offering a deleted table, or miss the new one). Main has already told the
 * SQL worker before the operation ended.
 */
export function tableSetChanged(connectionId: string): void {
  void useTablesStore.getState().loadList(connectionId);
  const sql = useSqlStore.getState();
  if (sql.connections[connectionId]?.catalog) void sql.loadCatalog(connectionId);
}
