import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { RowCache } from '../row-cache';
import type { GridSort } from '../store';
import { GridHeader } from './grid-header';
import { columnWidth, ENTITY_COLUMN, ROW_HEIGHT, useScrollFrame } from './grid-layout';

export { ENTITY_COLUMN, ROW_HEIGHT } from './grid-layout';
import { ValueCell } from './value-cell';

const OVERSCAN = 6;
const ANCHOR_STEP = 1024;
/** Browsers cap an element's height (~33M px in Chromium); past this the scroll is scaled. */
const MAX_SCROLL_PX = 15_000_000;

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

/**
 * A virtualized grid with a fixed row height: only the rows in view (plus a few) exist in the
 * DOM, absolutely placed inside one tall spacer, and only their blocks are fetched from the
 * result set. A million rows scroll like a hundred.
 */
export function ItemGrid(props: ItemGridProps) {
  const { resultSetId, viewId, version, total, keys } = props;
  // A new version means the rows changed meaning (new read, new view): a fresh cache.
  const cache = useMemo(
    () => new RowCache(resultSetId, viewId, version, (row) => entityOf(row, keys) !== undefined),
    [resultSetId, viewId, version, keys],
  );
  // Re-render when a block of rows arrives.
  const [, setLoaded] = useState(0);
  useEffect(() => cache.subscribe(() => setLoaded((n) => n + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const { scrollTop, height } = useScrollFrame(scroller);

  const fullHeight = total * ROW_HEIGHT;
  const spacer = Math.min(fullHeight, MAX_SCROLL_PX);
  const scale = fullHeight > spacer && spacer > height ? (fullHeight - height) / (spacer - height) : 1;
  const virtualTop = scrollTop * scale;
  const first = Math.max(0, Math.floor(virtualTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total - 1, Math.ceil((virtualTop + height) / ROW_HEIGHT) + OVERSCAN);
  useEffect(() => cache.ensure(first, last, total), [cache, first, last, total]);

  const hasEntities = cache.hasEntities === true;
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
  const rowWidth = 36 + columns.reduce((sum, c) => sum + columnWidth(c, keys), 0);

  const rows = [];
  for (let i = first; i <= last; i++) rows.push(i);
  // Rows sit at fixed places relative to an anchor row, and only the container moves: rows that
  // stay in view keep their pixels (no repaint), only rows coming into view are painted. The
  // anchor steps every ANCHOR_STEP rows, which repositions the rows in view once.
  const anchor = first - (first % ANCHOR_STEP);
  const offset = scrollTop + (anchor * ROW_HEIGHT - virtualTop);

  return (
    <div className="item-grid" role="grid" aria-rowcount={total} aria-label="Items">
      <div className="item-grid-scroller" ref={scroller} tabIndex={0}>
        <GridHeader columns={columns} keys={keys} sort={props.sort} width={rowWidth} onSort={props.onSort} />
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
                top={(index - anchor) * ROW_HEIGHT}
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
  top: number;
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
  top,
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
      style={{ width: rowWidth, height: ROW_HEIGHT, top }}
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
            style={{ width: columnWidth(column, keys) }}
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
