import { useEffect, useRef } from 'react';
import type { Connection } from '../../../../shared/ipc';
import { splitConnectionId } from '../../../../shared/dynamo/regions';
import { quoteName } from '../../../../shared/schema/schema-paths';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { useWholeCharacterWidth } from '../../../ui/whole-characters';
import { useTableDescription } from '../../tables/hooks';
import { ariaKeys, formatShortcut, matches } from '../../keyboard/shortcuts';
import { rovingTabIndex, useTabStripKeys } from '../../keyboard/tab-keys';
import { openInSql } from '../../sql/open-in-sql';
import { useTablesStore } from '../../tables/store';
import { tableKeyIn, useActiveTabs, useWorkspaceStore } from '../../workspace/store';
import { availableViews } from '../tabs';

export function TablePage({ connection, table }: { connection: Connection; table: string }) {
  const description = useTableDescription(connection.id, table);
  const reload = useTablesStore((state) => state.loadDescription);
  const tab = tableKeyIn(connection.id, table);
  const otherRegion = splitConnectionId(connection.id).region;
  const chosenView = useActiveTabs().tableViews[tab];
  const setView = useWorkspaceStore((state) => state.setTableView);
  const props = { connection, table, description: description?.value };
  const views = availableViews(props);
  // A table opens on its items, as in every other DynamoDB client; Overview is one click away.
  const active =
    views.find((view) => view.id === chosenView) ?? views.find((view) => view.id === 'items') ?? views[0];
  const status = description?.value?.summary.status;
  const viewIds = views.map((view) => view.id);
  const keys = useTabStripKeys(viewIds, active?.id ?? '', (view) => setView(tab, view));
  const title = useRef<HTMLHeadingElement>(null);
  useWholeCharacterWidth(title, table, `${otherRegion ?? ''} ${status ?? ''} ${viewIds.join()}`);
  // One Refresh for the page: the description, and what the view shows from the table (Items: its rows).
  const refresh = (): void => {
    void reload(connection.id, table);
    active?.refresh?.read(props);
  };
  const refreshNow = useRef(refresh);
  useEffect(() => {
    refreshNow.current = refresh;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || !matches('refresh', event)) return;
      // Never the browser's reload of the whole page; a dialog owns the keyboard until it closes.
      event.preventDefault();
      if (!document.querySelector('dialog[open]')) refreshNow.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="table-page">
      <header className="table-page-header">
        {/* A long name gives way first (cut with an ellipsis at a whole character, whole in its
            tooltip), so the views and Refresh stay on its line at 1024 px. */}
        <h1 className="table-title" title={table} ref={title}>
          {table}
        </h1>
        {otherRegion ? <Badge tone="neutral">{otherRegion}</Badge> : null}
        {status ? (
          <Badge tone={status === 'ACTIVE' ? 'success' : 'warning'}>{status.toLowerCase()}</Badge>
        ) : null}
        {views.length > 1 ? (
          <nav className="view-tabs" role="tablist" aria-label={`${table} views`} id={keys.listId}>
            {views.map((view) => (
              <button
                type="button"
                role="tab"
                key={view.id}
                aria-selected={view.id === active?.id}
                tabIndex={rovingTabIndex(viewIds, active?.id ?? '', view.id)}
                className={`view-tab${view.id === active?.id ? ' is-active' : ''}`}
                onClick={() => setView(tab, view.id)}
                onKeyDown={keys.onKeyDown}
              >
                {view.title}
              </button>
            ))}
          </nav>
        ) : null}
        <span className="toolbar-spacer" />
        <Button
          size="sm"
          title={`A new SQL tab reading ${table}${otherRegion ? ` in ${otherRegion}` : ''}`}
          onClick={() => openInSql(connection.id, `SELECT *\nFROM ${quoteName(table)}\nLIMIT 100`)}
        >
          Query in SQL
        </Button>
        <Button
          size="sm"
          className="table-refresh"
          aria-label="Refresh"
          aria-keyshortcuts={ariaKeys('refresh')}
          title={`Refresh: read ${table}${active?.refresh ? ` and ${active.refresh.what}` : "'s description"} again (${formatShortcut('refresh')})`}
          isBusy={description?.status === 'loading' && description.value !== undefined}
          onClick={refresh}
        >
          <span aria-hidden="true" className="table-refresh-icon">
            ↻
          </span>
          <span className="table-refresh-label">Refresh</span>
        </Button>
      </header>
      {/* A failed describe is said on every view (a Refresh on Items fails visibly too); without a
          description there is nothing to show but the sentence and its fix. */}
      {description?.status === 'error' ? (
        <div className="table-page-error">
          <ErrorMessage
            compact={description.value !== undefined}
            error={description.error}
            connectionId={connection.id}
            onRetry={() => void reload(connection.id, table)}
          />
        </div>
      ) : null}
      {description?.status === 'error' && description.value === undefined ? null : (
        <div className="table-page-body" role={views.length > 1 ? 'tabpanel' : undefined}>
          {active ? <active.Component {...props} /> : null}
        </div>
      )}
    </div>
  );
}
