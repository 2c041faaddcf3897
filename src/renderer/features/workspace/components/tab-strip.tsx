import { TableIcon } from '../../../ui/icons';
import { ariaKeys, formatShortcut, matches } from '../../keyboard/shortcuts';
import { rovingTabIndex, useTabStripKeys } from '../../keyboard/tab-keys';
import { useEditorStore } from '../../editor/store';
import { toolsIn } from '../tools';
import { homeTab, splitTableKey, tableTabId, toolTabId, useActiveTabs, useWorkspaceStore } from '../store';

export function TabStrip() {
  const { openTables, active } = useActiveTabs();
  const activateNow = useWorkspaceStore((state) => state.activate);
  const closeTableNow = useWorkspaceStore((state) => state.closeTable);
  const guard = useEditorStore((state) => state.guard);
  // Leaving a table with unsaved edits in its item editor asks first (Save / Discard / Cancel).
  const activate = (id: string): void => {
    if (id !== active) guard(() => activateNow(id));
  };
  const closeTable = (table: string): void => guard(() => closeTableNow(table));
  const pinned = [
    { id: homeTab, title: 'Tables' },
    ...toolsIn('tab').map((tool) => ({ id: toolTabId(tool.id), title: tool.title })),
  ];
  const ids = [...pinned.map((tab) => tab.id), ...openTables.map(tableTabId)];
  const keys = useTabStripKeys(ids, active, activate);
  const moveKeys = ariaKeys('next-tab');

  return (
    // The landmark wraps the tablist: a nav given role="tablist" stops being a landmark.
    <nav aria-label="Open tabs">
      <div className="tab-strip" role="tablist" aria-label="Open tabs" id={keys.listId}>
        {pinned.map((tab) => (
          <button
            type="button"
            role="tab"
            key={tab.id}
            aria-selected={active === tab.id}
            aria-keyshortcuts={moveKeys}
            tabIndex={rovingTabIndex(ids, active, tab.id)}
            className={`tab is-pinned${active === tab.id ? ' is-active' : ''}`}
            onClick={() => activate(tab.id)}
            onKeyDown={keys.onKeyDown}
          >
            {tab.title}
          </button>
        ))}
        {openTables.map((table) => {
          const id = tableTabId(table);
          const { name, region } = splitTableKey(table);
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
                aria-keyshortcuts={`${moveKeys} ${ariaKeys('close-tab')}`}
                tabIndex={rovingTabIndex(ids, active, id)}
                title={`${name}${region ? ` in ${region}` : ''} (${formatShortcut('close-tab')} closes the tab)`}
                className="tab-title"
                onClick={() => activate(id)}
                onKeyDown={(event) => {
                  if (keys.onKeyDown(event) || !matches('close-tab', event.nativeEvent)) return;
                  event.preventDefault();
                  keys.focusSelectedAfterRender();
                  closeTable(table);
                }}
              >
                <TableIcon />
                {/* In a span of its own: a flex item's bare text is clipped, never given an ellipsis. */}
                <span className="tab-name">{name}</span>
                {region ? <span className="tab-region">{region}</span> : null}
              </button>
              {/* A tablist may hold only tabs, so the × is for the mouse; keyboards press Delete on the tab. */}
              <span
                className="tab-close"
                aria-hidden="true"
                title={`Close ${name}`}
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
