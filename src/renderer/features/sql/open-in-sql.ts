import { splitConnectionId } from '../../../shared/dynamo/regions';
import { toolTabId, useWorkspaceStore } from '../workspace/store';
import { useSqlStore } from './store';

/**
 * A new statement tab holding `text` in the workbench of `connectionId` (a table of another region
 * comes as `<id>@<region>`, and the workbench switches to that region), shown; nothing runs until
 * the user runs it.
 */
export function openInSql(connectionId: string, text: string): void {
  const sql = useSqlStore.getState();
  sql.chooseWorkbench(splitConnectionId(connectionId).connectionId, connectionId);
  sql.addTab(connectionId, text);
  useWorkspaceStore.getState().activate(toolTabId('sql'));
}
