import { memo } from 'react';
import type { KeySchema } from '../../../../shared/ipc/tables';
import type { GridSort } from '../store';
import { colIndexOf, rowIndexOf } from '../../../ui/grid-keys';
import { columnLabel } from './grid-aria';
import { columnLeft, columnWidth, ENTITY_COLUMN } from './grid-layout';

export interface GridHeaderProps {
  columns: string[];
  keys: KeySchema;
  sort: GridSort[];
  width: number;
  /** How many leading columns are pinned at the left (see pinnedCount). */
  pinned: number;
  /** The grid column that is the grid's one tab stop, when it is in the header row. */
  activeCol?: number;
  onSort(column: string): void;
}

/**
 * Column headers, row 1 of the grid; memoized so scrolling never re-renders them. A header is
 * the focusable cell itself (Enter or Space sorts, see item-grid), not a button inside the row:
 * a row may hold only cells.
 */
export const GridHeader = memo(function GridHeader({
  columns,
  keys,
  sort,
  width,
  pinned,
  activeCol,
  onSort,
}: GridHeaderProps) {
  const keyNames = [keys.partitionKey.name, keys.sortKey?.name];
  return (
    <div className="item-grid-header" style={{ width }} role="row" aria-rowindex={rowIndexOf(-1)}>
      <div
        role="columnheader"
        aria-colindex={colIndexOf(0)}
        className="item-grid-check"
        tabIndex={activeCol === 0 ? 0 : -1}
      >
        <span className="item-grid-hidden-text">Selection</span>
      </div>
      {columns.map((column, k) => {
        const sorted = sort.find((s) => s.column === column);
        const isEntity = column === ENTITY_COLUMN;
        const col = k + 1;
        const isPinned = k < pinned;
        const classNames = [
          'item-grid-th',
          keyNames.includes(column) ? 'is-key' : '',
          isPinned ? 'is-pinned' : '',
          isPinned && col === pinned ? 'is-last-pinned' : '',
        ];
        return (
          <div
            key={column}
            role="columnheader"
            aria-colindex={colIndexOf(col)}
            tabIndex={activeCol === col ? 0 : -1}
            className={classNames.filter(Boolean).join(' ')}
            style={{
              width: columnWidth(column, keys),
              left: isPinned ? columnLeft(columns, keys, k) : undefined,
            }}
            onClick={() => !isEntity && onSort(column)}
            aria-sort={sorted ? (sorted.descending ? 'descending' : 'ascending') : undefined}
            title={isEntity ? 'Entity type, from the key prefixes' : `${column} (Enter sorts)`}
          >
            {columnLabel(column)}
            {sorted ? (
              <span className="sort-arrow" aria-hidden="true">
                {sorted.descending ? '▼' : '▲'}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
});
