import { TableIcon } from '../../../ui/icons';
import { ariaKeys, formatShortcut, matches } from '../../keyboard/shortcuts';
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
    // The landmark wraps the tablist: a nav given role="tablist" stops being a landmark.
    <nav aria-label="Open tabs">
      <div className="tab-strip" role="tablist" aria-label="Open tabs">
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
                aria-keyshortcuts={ariaKeys('close-tab')}
                title={`${table} (${formatShortcut('close-tab')} closes the tab)`}
                className="tab-title"
                onClick={() => activate(id)}
                onKeyDown={(event) => {
                  if (matches('close-tab', event.nativeEvent)) closeTable(table);
                }}
              >
                <TableIcon />
                {table}
              </button>
              {/* A tablist may hold only tabs, so the × is for the mouse; keyboards press Delete on the tab. */}
              <span
                className="tab-close"
                aria-hidden="true"
                title={`Close ${table}`}
                onClick={() => closeTable(table)}
              >
                ×
              </span>
            </div>
          );
        })}
      </div>
    </nav>
  );
}
