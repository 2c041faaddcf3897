import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { RowCache } from '../row-cache';
import type { GridSort } from '../store';
import { ValueCell } from './value-cell';

export const ROW_HEIGHT = 28;
const OVERSCAN = 6;
/** Browsers cap an element's height (~33M px in Chromium); past this the scroll is scaled. */
const MAX_SCROLL_PX = 15_000_000;
export const ENTITY_COLUMN = '\u0000entity';

export interface ItemGridProps {
  resultSetId: string;
  viewId?: string;
  version: number;
  total: number;
  keys: KeySchema;
  hiddenColumns: string[];
  sort: GridSort[];
  isGrouped: boolean;
  selected: ReadonlySet<number>;
  onSort(column: string): void;
  onToggleRow(index: number, isRange: boolean): void;
  onOpen(item: Item, index: number): void;
  onColumns(columns: string[]): void;
  onExpand(name: string, value: AttributeValue): void;
}

function width(column: string, keys: KeySchema): number {
  if (column === keys.partitionKey.name || column === keys.sortKey?.name) return 200;
  return column === ENTITY_COLUMN ? 110 : 170;
}

/**
 * A virtualized grid with a fixed row height: only the rows in view (plus a few) exist in the
 * DOM, absolutely placed inside one tall spacer, and only their blocks are fetched from the
 * result set. A million rows scroll like a hundred.
 */
export function ItemGrid(props: ItemGridProps) {
  const { resultSetId, viewId, version, total, keys } = props;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new cache per result set, view and version
  const cache = useMemo(() => new RowCache(resultSetId, viewId), [resultSetId, viewId, version]);
  // Re-render when a block of rows arrives.
  const [, setLoaded] = useState(0);
  useEffect(() => cache.subscribe(() => setLoaded((n) => n + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  const fullHeight = total * ROW_HEIGHT;
  const spacer = Math.min(fullHeight, MAX_SCROLL_PX);
  const scale = fullHeight > spacer && spacer > height ? (fullHeight - height) / (spacer - height) : 1;
  const virtualTop = scrollTop * scale;
  const first = Math.max(0, Math.floor(virtualTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total - 1, Math.ceil((virtualTop + height) / ROW_HEIGHT) + OVERSCAN);
  useEffect(() => cache.ensure(first, last, total), [cache, first, last, total]);

  const hasEntities = useMemo(() => {
    for (let i = first; i <= last; i++) {
      const row = cache.row(i);
      if (row && entityOf(row, keys)) return true;
    }
    return false;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed as rows arrive
  }, [cache, first, last, keys, cache.columns]);
  const keyNames = [keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])];
  const ordered = cache.columns.length > 0 ? cache.columns : keyNames;
  const withEntity = hasEntities
    ? [
        ...ordered.filter((c) => keyNames.includes(c)),
        ENTITY_COLUMN,
        ...ordered.filter((c) => !keyNames.includes(c)),
      ]
    : ordered;
  // One array per distinct column list, so memoized rows do not re-render on every scroll frame.
  const columnsKey = JSON.stringify(withEntity.filter((c) => !props.hiddenColumns.includes(c)));
  const columns = useMemo(() => JSON.parse(columnsKey) as string[], [columnsKey]);
  const { onColumns } = props;
  useEffect(() => onColumns(ordered), [onColumns, ordered.join('\u0000')]); // eslint-disable-line react-hooks/exhaustive-deps
  const rowWidth = 36 + columns.reduce((sum, c) => sum + width(c, keys), 0);

  const rows = [];
  for (let i = first; i <= last; i++) rows.push(i);
  const offset = scrollTop + (first * ROW_HEIGHT - virtualTop);

  return (
    <div className="item-grid" role="grid" aria-rowcount={total} aria-label="Items">
      <div
        className="item-grid-scroller"
        ref={scroller}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        tabIndex={0}
      >
        <div className="item-grid-header" style={{ width: rowWidth }} role="row">
          <span className="item-grid-check" />
          {columns.map((column) => {
            const sorted = props.sort.find((s) => s.column === column);
            return (
              <button
                key={column}
                type="button"
                role="columnheader"
                className={`item-grid-th${keyNames.includes(column) ? ' is-key' : ''}`}
                style={{ width: width(column, keys) }}
                onClick={() => column !== ENTITY_COLUMN && props.onSort(column)}
                aria-sort={sorted ? (sorted.descending ? 'descending' : 'ascending') : undefined}
                title={column === ENTITY_COLUMN ? 'Entity type, from the key prefixes' : column}
              >
                {column === ENTITY_COLUMN ? 'type (key prefix)' : column}
                {sorted ? <span className="sort-arrow">{sorted.descending ? '▼' : '▲'}</span> : null}
              </button>
            );
          })}
        </div>
        <div className="item-grid-spacer" style={{ height: spacer, width: rowWidth }}>
          <div className="item-grid-rows" style={{ transform: `translateY(${offset}px)` }}>
            {rows.map((index) => (
              <GridRow
                key={index}
                index={index}
                item={cache.row(index)}
                previous={props.isGrouped ? cache.row(index - 1) : undefined}
                columns={columns}
                keys={keys}
                isSelected={props.selected.has(index)}
                isGrouped={props.isGrouped}
                width={rowWidth}
                onOpen={props.onOpen}
                onToggleRow={props.onToggleRow}
                onExpand={props.onExpand}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

interface GridRowProps extends Pick<
  ItemGridProps,
  'onOpen' | 'onToggleRow' | 'onExpand' | 'isGrouped' | 'keys'
> {
  index: number;
  item: Item | undefined;
  previous: Item | undefined;
  columns: string[];
  isSelected: boolean;
  width: number;
}

/** Memoized: while scrolling only the rows that come into view render; the others keep their DOM. */
const GridRow = memo(function GridRow({
  index,
  item,
  previous,
  columns,
  keys,
  isSelected,
  isGrouped,
  width: rowWidth,
  onOpen,
  onToggleRow,
  onExpand,
}: GridRowProps) {
  const pk = keys.partitionKey.name;
  const isContinued =
    isGrouped &&
    item !== undefined &&
    previous !== undefined &&
    JSON.stringify(previous[pk]) === JSON.stringify(item[pk]);
  const classes = [
    'item-grid-row',
    index % 2 === 1 ? 'is-odd' : '',
    isSelected ? 'is-selected' : '',
    isGrouped && !isContinued ? 'is-group-start' : '',
  ];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      role="row"
      aria-rowindex={index + 1}
      aria-selected={isSelected}
      style={{ width: rowWidth, height: ROW_HEIGHT }}
      onDoubleClick={() => item && onOpen(item, index)}
    >
      <span className="item-grid-check">
        {/* A plain button, not <input type=checkbox>: native controls cost more to paint per frame. */}
        <button
          type="button"
          role="checkbox"
          className="row-check"
          aria-label={`Select row ${index + 1}`}
          aria-checked={isSelected}
          onClick={(event) => onToggleRow(index, event.shiftKey)}
        />
      </span>
      {item === undefined ? (
        <span className="item-grid-loading" />
      ) : (
        columns.map((column) => (
          <span
            key={column}
            role="gridcell"
            className="item-grid-cell"
            style={{ width: width(column, keys) }}
          >
            {column === ENTITY_COLUMN ? (
              <span className="cell-entity">{entityOf(item, keys) ?? ''}</span>
            ) : isContinued && column === pk ? (
              <span className="cell-faint" title="Same partition as the row above">
                〃
              </span>
            ) : (
              <ValueCell
                value={item[column]}
                onExpand={() => {
                  const v = item[column];
                  if (v) onExpand(column, v);
                }}
              />
            )}
          </span>
        ))
      )}
    </div>
  );
});
