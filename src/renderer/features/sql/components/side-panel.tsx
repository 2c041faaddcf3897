import type { SqlCatalogOutput } from '../../../../shared/ipc/sql';
import type { HistoryEntry, SavedQuery } from '../store';

export interface SidePanelProps {
  catalog?: SqlCatalogOutput;
  history: HistoryEntry[];
  saved: SavedQuery[];
  onInsert(text: string): void;
  onLoad(sql: string): void;
  onDelete(name: string): void;
  onRefreshCatalog(): void;
}

const quoted = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`);

/** Tables and entity views to insert, saved queries (shared .sql files) and history to reload. */
export function SidePanel({ catalog, history, saved, onInsert, onLoad, onDelete, onRefreshCatalog }: SidePanelProps) {
  return (
    <aside className="sql-side" aria-label="Tables, saved queries and history">
      <section>
        <h3>
          Tables and views
          <button type="button" className="sql-link" onClick={onRefreshCatalog} title="Read the tables and sample them again">
            Refresh
          </button>
        </h3>
        {!catalog ? <p className="sql-faint">Loading…</p> : null}
        <ul className="sql-tree">
          {catalog?.tables.map((table) => (
            <li key={table.name}>
              <button type="button" className="sql-tree-item" onClick={() => onInsert(quoted(table.name))} title={`${table.itemCount.toLocaleString('en-US')} items (approximate)`}>
                <span className="sql-kind" aria-hidden="true">T</span> {table.name}
              </button>
              <ul>
                {catalog.views
                  .filter((v) => v.table === table.name)
                  .map((view) => (
                    <li key={view.name}>
                      <button
                        type="button"
                        className="sql-tree-item"
                        onClick={() => onInsert(view.name)}
                        title={`${view.source === 'user' ? 'Your view' : 'Detected from key prefixes'}: ${view.conditions.map((c) => `${c.op}(${c.attribute})`).join(' AND ')}`}
                      >
                        <span className="sql-kind is-view" aria-hidden="true">V</span> {view.name}
                      </button>
                    </li>
                  ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3>Saved queries</h3>
        {saved.length === 0 ? <p className="sql-faint">None yet. Save one to share it as a .sql file.</p> : null}
        <ul className="sql-list">
          {saved.map((query) => (
            <li key={query.file}>
              <button type="button" className="sql-tree-item" onClick={() => onLoad(query.sql)} title={query.file}>
                {query.name}
              </button>
              <button type="button" className="sql-link" aria-label={`Delete ${query.name}`} onClick={() => onDelete(query.name)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3>History</h3>
        <ul className="sql-list">
          {history.slice(0, 50).map((entry) => (
            <li key={`${entry.ranAt}-${entry.sql.length}`}>
              <button type="button" className="sql-tree-item sql-history-item" onClick={() => onLoad(entry.sql)} title={`${entry.ranAt}\n${entry.sql}`}>
                {entry.sql.replace(/\s+/g, ' ').slice(0, 80)}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
