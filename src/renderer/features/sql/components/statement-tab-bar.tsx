import { type KeyboardEvent, useState } from 'react';
import { Button } from '../../../ui/button';
import { matches } from '../../keyboard/shortcuts';
import { rovingTabIndex, useTabStripKeys } from '../../keyboard/tab-keys';
import type { SqlDocuments } from '../statement-tabs';

export interface StatementTabBarProps {
  documents: SqlDocuments;
  /** Tabs with a statement running show a dot. */
  busy: ReadonlySet<string>;
  panelId: string;
  onActivate(tabId: string): void;
  onAdd(): void;
  onClose(tabId: string): void;
  onRename(tabId: string, title: string): void;
}

/**
 * The workbench's statement tabs. Keyboard: arrows, Home and End move between tabs, F2 (or a
 * double click) renames, Delete closes; Ctrl/Cmd+Alt+T adds a tab and Ctrl/Cmd+Alt+W closes
 * one anywhere in the workbench (the workbench listens for those).
 */
export function StatementTabBar({
  documents,
  busy,
  panelId,
  onActivate,
  onAdd,
  onClose,
  onRename,
}: StatementTabBarProps) {
  const [renaming, setRenaming] = useState<string>();
  const [draft, setDraft] = useState('');
  const ids = documents.tabs.map((tab) => tab.id);
  const keys = useTabStripKeys(ids, documents.active, onActivate);
  const startRename = (tabId: string, title: string): void => {
    setDraft(title);
    setRenaming(tabId);
  };
  const finishRename = (commit: boolean): void => {
    if (renaming && commit) onRename(renaming, draft);
    setRenaming(undefined);
    keys.focusSelectedAfterRender();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, tabId: string, title: string): void => {
    if (keys.onKeyDown(event)) return;
    if (matches('rename-sql-tab', event.nativeEvent)) {
      event.preventDefault();
      startRename(tabId, title);
    } else if (matches('close-tab', event.nativeEvent)) {
      event.preventDefault();
      keys.focusSelectedAfterRender();
      onClose(tabId);
    }
  };
  const active = documents.tabs.find((t) => t.id === documents.active);
  return (
    <div className="sql-doc-bar">
      <div className="sql-doc-tabs" role="tablist" aria-label="Statements" id={keys.listId}>
        {documents.tabs.map((tab) =>
          renaming === tab.id ? (
            <input
              key={tab.id}
              className="sql-doc-rename"
              aria-label={`New name for ${tab.title}`}
              value={draft}
              autoFocus
              maxLength={60}
              onChange={(e) => setDraft(e.target.value)}
              onBlur={() => finishRename(true)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') finishRename(true);
                else if (e.key === 'Escape') {
                  e.preventDefault();
                  finishRename(false);
                }
              }}
            />
          ) : (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`sql-doc-tab-${tab.id}`}
              aria-selected={tab.id === documents.active}
              aria-controls={panelId}
              tabIndex={rovingTabIndex(ids, documents.active, tab.id)}
              className={`sql-doc-tab${tab.id === documents.active ? ' is-active' : ''}`}
              title={`${tab.title} — F2 or double-click renames, Delete closes`}
              onClick={() => onActivate(tab.id)}
              onDoubleClick={() => startRename(tab.id, tab.title)}
              onAuxClick={(e) => {
                if (e.button === 1) onClose(tab.id);
              }}
              onKeyDown={(e) => onKeyDown(e, tab.id, tab.title)}
            >
              {tab.title}
              {busy.has(tab.id) ? <span className="sql-doc-busy" aria-label="(running)" /> : null}
            </button>
          ),
        )}
      </div>
      <Button size="sm" variant="ghost" onClick={onAdd} title="New statement tab (Ctrl/Cmd+Alt+T)">
        + New tab
      </Button>
      {active ? (
        <>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => startRename(active.id, active.title)}
            aria-label={`Rename ${active.title}`}
            title="Rename this tab (F2 on the tab)"
          >
            Rename
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onClose(active.id)}
            aria-label={`Close ${active.title}`}
            title="Close this tab (Ctrl/Cmd+Alt+W, or Delete on the tab)"
          >
            Close
          </Button>
        </>
      ) : null}
    </div>
  );
}
