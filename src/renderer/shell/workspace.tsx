import { useEffect, useRef, useState } from 'react';
import type { Connection } from '../../shared/ipc';
import { UnsavedDialog } from '../features/editor/components/unsaved-dialog';
import { useEditorStore } from '../features/editor/store';
import { TablePage } from '../features/table/components/table-page';
import { TableList } from '../features/tables/components/table-list';
import { connectionInRegion } from '../../shared/dynamo/regions';
import { moveFocus } from '../ui/move-focus';
import { arrivalTarget, SkipLink } from '../ui/skip-link';
import { focusTableList } from '../features/workspace/hooks';
import {
  homeTab,
  splitTableKey,
  tableTabId,
  toolTabId,
  useActiveTabs,
  useWorkspaceStore,
} from '../features/workspace/store';
import { toolsIn } from '../features/workspace/tools';
import { TabStrip } from '../features/workspace/components/tab-strip';
import { WorkspaceNotice } from '../features/workspace/components/workspace-notice';
import { TopBar } from './top-bar';

function ActiveTab({ connection }: { connection: Connection }) {
  const { openTables, active } = useActiveTabs();
  if (active === homeTab) return <TableList connection={connection} />;
  const table = openTables.find((name) => tableTabId(name) === active);
  if (table) {
    // A table of another region is shown through the connection as it acts there.
    const { name, region } = splitTableKey(table);
    const where = region === undefined ? connection : (connectionInRegion(connection, region) ?? connection);
    // Keyed by table so switching tabs never shows one table's state inside another.
    return <TablePage key={table} connection={where} table={name} />;
  }
  const tool = toolsIn('tab').find((candidate) => toolTabId(candidate.id) === active);
  if (tool) return <tool.Component connection={connection} />;
  return <TableList connection={connection} />;
}

export function Workspace({ connection }: { connection: Connection }) {
  const closeConnection = useWorkspaceStore((state) => state.closeConnection);
  const guard = useEditorStore((state) => state.guard);
  const [openDock, setOpenDock] = useState<string>();
  const dock = toolsIn('dock').find((tool) => tool.id === openDock);
  const main = useRef<HTMLElement>(null);
  const { active } = useActiveTabs();

  // After every navigation (the connection opened, a table opened, a tab closed) focus lands on
  // the new view's first control or heading. Only when focus was lost with the control that
  // navigated: arrowing along the tab strip keeps focus on the tab.
  useEffect(() => {
    let frames = 0;
    let frame = 0;
    const land = (): void => {
      const focused = document.activeElement;
      if (focused && focused !== document.body && focused.isConnected) return;
      const target = arrivalTarget(main.current);
      if (target) moveFocus(target);
      else if (++frames < 30) frame = requestAnimationFrame(land);
    };
    frame = requestAnimationFrame(land);
    return () => cancelAnimationFrame(frame);
  }, [active, connection.id]);

  useEffect(() => {
    // The window title names the connection too, so the taskbar tells accounts apart.
    document.title = `${connection.isProduction ? 'PRODUCTION · ' : ''}${connection.label} — DynoTable`;
    return () => {
      document.title = 'DynoTable';
    };
  }, [connection.label, connection.isProduction]);

  return (
    <div className={`workspace${connection.isProduction ? ' is-production' : ''}`}>
      <SkipLink target={() => arrivalTarget(main.current)}>Skip to main content</SkipLink>
      <SkipLink target={focusTableList}>Skip to the table list</SkipLink>
      <TopBar
        connection={connection}
        openDock={openDock}
        onToggleDock={(id) => setOpenDock((current) => (current === id ? undefined : id))}
        onSwitchConnection={() => guard(closeConnection)}
      />
      <TabStrip />
      <WorkspaceNotice connectionId={connection.id} />
      <div className="workspace-body">
        <main className="workspace-main" ref={main}>
          <ActiveTab connection={connection} />
        </main>
        {dock ? (
          <aside className="workspace-dock" aria-label={dock.title}>
            <dock.Component connection={connection} />
          </aside>
        ) : null}
      </div>
      <UnsavedDialog />
    </div>
  );
}
