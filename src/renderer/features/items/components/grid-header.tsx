import { memo } from 'react';
import type { KeySchema } from '../../../../shared/ipc/tables';
import type { GridSort } from '../store';
import { columnWidth, ENTITY_COLUMN } from './grid-layout';

export interface GridHeaderProps {
  columns: string[];
  keys: KeySchema;
  sort: GridSort[];
  width: number;
  onSort(column: string): void;
}

/** Column headers; memoized so scrolling never re-renders them. */
export const GridHeader = memo(function GridHeader({ columns, keys, sort, width, onSort }: GridHeaderProps) {
  const keyNames = [keys.partitionKey.name, keys.sortKey?.name];
  return (
    <div className="item-grid-header" style={{ width }} role="row">
      <span className="item-grid-check" />
      {columns.map((column) => {
        const sorted = sort.find((s) => s.column === column);
        const isEntity = column === ENTITY_COLUMN;
        return (
          <button
            key={column}
            type="button"
            role="columnheader"
            className={`item-grid-th${keyNames.includes(column) ? ' is-key' : ''}`}
            style={{ width: columnWidth(column, keys) }}
            onClick={() => !isEntity && onSort(column)}
            aria-sort={sorted ? (sorted.descending ? 'descending' : 'ascending') : undefined}
            title={isEntity ? 'Entity type, from the key prefixes' : column}
          >
            {isEntity ? 'type (key prefix)' : column}
            {sorted ? <span className="sort-arrow">{sorted.descending ? '▼' : '▲'}</span> : null}
          </button>
        );
      })}
    </div>
  );
});
