import { TableIcon } from '../../../ui/icons';
import { toolsIn } from '../tools';
import { homeTab, tableTabId, toolTabId, useActiveTabs, useWorkspaceStore } from '../store';

export function TabStrip() {
  const { openTables, active } = useActiveTabs();
  const activate = useWorkspaceStore((state) => state.activate);
  const closeTable = useWorkspaceStore((state) => state.closeTable);
  const pinned = [
    { id: homeTab, title: 'Tables' },
    ...toolsIn('tab').map((tool) => ({ id: toolTabId(tool.id), title: tool.title })),
  ];

  return (
    <nav className="tab-strip" role="tablist" aria-label="Open tabs">
      {pinned.map((tab) => (
        <button
          type="button"
          role="tab"
          key={tab.id}
          aria-selected={active === tab.id}
          className={`tab is-pinned${active === tab.id ? ' is-active' : ''}`}
          onClick={() => activate(tab.id)}
        >
          {tab.title}
        </button>
      ))}
      {openTables.map((table) => {
        const id = tableTabId(table);
        return (
          <div
            key={id}
            className={`tab${active === id ? ' is-active' : ''}`}
            onAuxClick={(event) => {
              // Middle click closes, as in browsers and editors.
              if (event.button === 1) closeTable(table);
            }}
          >
            <button
              type="button"
              role="tab"
              aria-selected={active === id}
              className="tab-title"
              onClick={() => activate(id)}
            >
              <TableIcon />
              {table}
            </button>
            <button
              type="button"
              className="tab-close"
              aria-label={`Close ${table}`}
              onClick={() => closeTable(table)}
            >
              ×
            </button>
          </div>
        );
      })}
    </nav>
  );
}
