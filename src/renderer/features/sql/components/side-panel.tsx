import { type ReactNode, useState } from 'react';
import type { SqlCatalogOutput } from '../../../../shared/ipc/sql';
import { quoteName } from '../../../../shared/schema/schema-paths';
import { call } from '../../../ipc/client';
import type { HistoryEntry, SavedQuery } from '../store';
import { ViewForm } from './view-form';

export interface SidePanelProps {
  connectionId: string;
  /** Above the tables: which region they are of, when the connection has more than one. */
  region?: ReactNode;
  catalog?: SqlCatalogOutput;
  history: HistoryEntry[];
  saved: SavedQuery[];
  onInsert(text: string): void;
  onLoad(sql: string): void;
  onDelete(name: string): void;
  onRefreshCatalog(): void;
}

/** Tables and entity views to insert, saved queries (shared .sql files) and history to reload. */
export function SidePanel({
  connectionId,
  region,
  catalog,
  history,
  saved,
  onInsert,
  onLoad,
  onDelete,
  onRefreshCatalog,
}: SidePanelProps) {
  const [isAdding, setIsAdding] = useState(false);
  return (
    <aside className="sql-side" aria-label="Tables, saved queries and history">
      {region}
      <section>
        <h2>
          Tables
          <span>
            <button
              type="button"
              className="sql-link"
              onClick={() => setIsAdding((v) => !v)}
              title="Define an entity view: a name and a key condition"
            >
              New view
            </button>
            <button
              type="button"
              className="sql-link"
              onClick={onRefreshCatalog}
              title="Read the tables and sample them again"
            >
              Refresh
            </button>
          </span>
        </h2>
        {isAdding && catalog ? (
          <ViewForm
            connectionId={connectionId}
            catalog={catalog}
            onCancel={() => setIsAdding(false)}
            onSaved={() => {
              setIsAdding(false);
              onRefreshCatalog();
            }}
          />
        ) : null}
        {!catalog ? <p className="sql-faint">Loading…</p> : null}
        <ul className="sql-tree">
          {catalog?.tables.map((table) => (
            <li key={table.name}>
              <button
                type="button"
                className="sql-tree-item"
                onClick={() => onInsert(quoteName(table.name))}
                title={`${table.itemCount.toLocaleString('en-US')} items (approximate)`}
              >
                <span className="sql-kind" aria-hidden="true">
                  T
                </span>{' '}
                {table.name}
              </button>
              <ul>
                {catalog.views
                  .filter((v) => v.table === table.name)
                  .map((view) => (
                    <li key={view.name}>
                      <button
                        type="button"
                        className="sql-tree-item"
                        onClick={() => onInsert(`${quoteName(table.name)}.${quoteName(view.name)}`)}
                        title={`${view.source === 'user' ? 'Your view' : 'Detected from key prefixes'}: ${view.conditions.map((c) => `${c.op}(${c.attribute})`).join(' AND ')}`}
                      >
                        <span className="sql-kind is-view" aria-hidden="true">
                          V
                        </span>{' '}
                        {view.name}
                      </button>
                      {view.source === 'user' ? (
                        <button
                          type="button"
                          className="sql-link"
                          aria-label={`Delete view ${view.name}`}
                          onClick={() =>
                            void call('sql:deleteView', { connectionId, name: view.name }).then(
                              onRefreshCatalog,
                            )
                          }
                        >
                          ×
                        </button>
                      ) : null}
                    </li>
                  ))}
              </ul>
            </li>
          ))}
          {catalog?.moreTables?.map((name) => (
            <li key={`more:${name}`}>
              <button
                type="button"
                className="sql-tree-item"
                onClick={() => onInsert(quoteName(name))}
                title="Not sampled: its views and attributes appear once a statement names it"
              >
                <span className="sql-kind" aria-hidden="true">
                  T
                </span>{' '}
                {name}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>Saved queries</h2>
        {saved.length === 0 ? (
          <p className="sql-faint">None yet. Save one to share it as a .sql file.</p>
        ) : null}
        <ul className="sql-list">
          {saved.map((query) => (
            <li key={query.file}>
              <button
                type="button"
                className="sql-tree-item"
                onClick={() => onLoad(query.sql)}
                title={query.file}
              >
                {query.name}
              </button>
              <button
                type="button"
                className="sql-link"
                aria-label={`Delete ${query.name}`}
                onClick={() => onDelete(query.name)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>History</h2>
        <ul className="sql-list">
          {history.slice(0, 50).map((entry) => (
            <li key={`${entry.ranAt}-${entry.sql.length}`}>
              <button
                type="button"
                className="sql-tree-item sql-history-item"
                onClick={() => onLoad(entry.sql)}
                title={`${entry.ranAt}${entry.source === 'cli' ? ' from the CLI (dynotable sql)' : ''}\n${entry.sql}`}
              >
                {entry.source === 'cli' && <span className="sql-history-source">CLI</span>}
                {entry.sql.replace(/\s+/g, ' ').slice(0, 80)}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
