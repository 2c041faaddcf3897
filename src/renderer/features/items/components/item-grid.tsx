import { useEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import type { CollectionHeader } from '../../../../shared/ipc/query';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { ErrorMessage } from '../../../ui/error-message';
import { RowCache } from '../row-cache';
import type { GridLayout, GridSort } from '../store';
import { CellEditor } from './cell-editor';
import { CollectionRow } from './collection-row';
import { clampPoint, gridColCount, gridRowCount, type GridPoint } from '../../../ui/grid-keys';
import { GridHeader } from './grid-header';
import { ENTITY_COLUMN, itemColumnLayout } from './grid-layout';
import { columnLeftOf, rowWidthOf, shownColumns } from '../../../ui/grid-columns';
import { tabStopOf } from '../../../ui/use-grid-keyboard';
import { HEADER_HEIGHT, ROW_HEIGHT, rowsPerPage } from '../../../ui/virtual-rows';
import { useVirtualRows, VirtualGrid } from '../../../ui/virtual-grid';
import { GridRow } from './grid-row';
import { isCollectionSelected, isRowSelected, type Selection } from '../selection';
import { rowKeyText } from './grid-rows';
import { useGridFocus, type Editing } from './use-grid-focus';

export { ENTITY_COLUMN } from './grid-layout';
export { ROW_HEIGHT } from '../../../ui/virtual-rows';
export { rowKeyText } from './grid-rows';

export interface ItemGridProps {
  resultSetId: string;
  viewId?: string;
  version: number;
  total: number;
  keys: KeySchema;
  hiddenColumns: string[];
  sort: GridSort[];
  isGrouped: boolean;
  /** The items the user picked, by key. */
  selected: Selection;
  /** Bumped when positions from `from` on show other rows (a collapse, rows streamed into collections). */
  layout?: GridLayout;
  /** Items with a staged change that is not committed yet, by key (see rowKeyText): as staged, null for a delete. */
  staged?: ReadonlyMap<string, Item | null>;
  /** Whether scalar cells can be edited in place (not on a read-only connection). */
  canEdit?: boolean;
  onSort(column: string): void;
  onToggleRow(item: Item, position: number, isRange: boolean): void;
  onOpen(item: Item, position: number): void;
  onColumns(columns: string[]): void;
  onExpand(name: string, value: AttributeValue): void;
  /** A cell edited in place: stage `item` (as the grid shows it) with `column` set to `value`. */
  onEditCell?(item: Item, column: string, value: AttributeValue): void;
  onToggleCollection?(header: CollectionHeader): void;
  onSelectCollection?(header: CollectionHeader, isSelected: boolean): void;
}

const noCollectionAction = (): void => undefined;

/**
 * A virtualized ARIA grid with a fixed row height: only the rows in view (plus a few) exist in
 * the DOM, absolutely placed inside one tall spacer, and only their blocks are fetched from the
 * result set. A million rows scroll like a hundred. aria-rowcount and aria-rowindex speak of the
 * whole result set; one cell is the tab stop and the keys move it (see use-grid-focus).
 */
export function ItemGrid(props: ItemGridProps) {
  const { resultSetId, viewId, version, total, keys } = props;
  // A new version means the rows changed meaning (new read, new view): a fresh cache.
  const cache = useMemo(
    () =>
      new RowCache(
        resultSetId,
        viewId,
        version,
        (row) => entityOf(row, keys) !== undefined,
        (row) => rowKeyText(row, keys),
      ),
    [resultSetId, viewId, version, keys],
  );
  // The rows the read's first page event brought are drawn by this render (see takeFirstWindow).
  cache.takeFirstWindow();
  // Re-render when a block of rows arrives.
  const [, setLoaded] = useState(0);
  useEffect(() => cache.subscribe(() => setLoaded((n) => n + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const { scrollLeft, height, width, scrollTo, spacer, virtualTop, first, last, offset, rowTop } =
    useVirtualRows(scroller, total);
  const { layout } = props;
  const invalidated = useRef(layout?.revision);
  useEffect(() => {
    if (layout && layout.revision !== invalidated.current) {
      invalidated.current = layout.revision;
      cache.invalidateFrom(layout.from);
    }
    // A grid mounted as its read starts holds no rows yet: a window read now would answer empty
    // and, waiting in the worker behind the first page, delay the rows it was meant to bring.
    if (total > 0) cache.ensure(first, last, total);
  }, [cache, first, last, total, layout]);

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
  const columnsLayout = useMemo(() => itemColumnLayout(columns, keys), [columns, keys]);
  const rowWidth = rowWidthOf(columnsLayout);
  // Only the columns in view (plus a margin) are rendered in rows; one array per range, so
  // memoized rows re-render only when a sideways scroll brings another column in.
  const shown = shownColumns(columnsLayout, scrollLeft, width);
  const rowColumns = useMemo(() => columns.slice(shown.from, shown.to), [columns, shown.from, shown.to]);
  const pinnedColumns = useMemo(() => columns.slice(0, shown.pinned), [columns, shown.pinned]);

  const [active, setActive] = useState<GridPoint>({ row: 0, col: 1 });
  const [editing, setEditing] = useState<Editing>();
  const size = { rows: total, cols: columns.length, page: rowsPerPage(height) };
  const point = clampPoint(active, size);
  const tab = tabStopOf(point, { first, last, virtualTop, total }, shown);
  const focus = useGridFocus({
    scroller,
    cache,
    props,
    columns,
    size,
    point,
    tab,
    editing,
    frame: { height, width, scrollTo },
    setActive,
    setEditing,
  });

  const isInRangeRow = (index: number) =>
    focus.range !== undefined && index >= focus.range.top && index <= focus.range.bottom;
  const rows = [];
  for (let i = first; i <= last; i++) rows.push(i);
  const editorNode = (row: number, item: Item) => {
    if (!editing || editing.row !== row || editing.rowKey !== rowKeyText(item, keys)) return undefined;
    const rowY = HEADER_HEIGHT + row * ROW_HEIGHT - virtualTop;
    return {
      col: editing.col,
      node: (
        <CellEditor
          column={columns[editing.col - 1] ?? ''}
          kind={editing.kind}
          text={editing.text}
          problem={editing.problem}
          isProblemAbove={rowY + ROW_HEIGHT + 64 > height}
          isProblemAtEnd={columnLeftOf(columnsLayout, editing.col - 1) - scrollLeft > width / 2}
          onChange={(text) => setEditing({ ...editing, text, problem: undefined })}
          onCommit={focus.commitEdit}
          onCancel={focus.cancelEdit}
        />
      ),
    };
  };

  return (
    <div className="item-grid">
      {cache.error && <ErrorMessage error={cache.error} compact onRetry={() => cache.retry()} />}
      <VirtualGrid
        scroller={scroller}
        classes={{
          scroller: `item-grid-scroller${scrollLeft > 0 ? ' is-scrolled-sideways' : ''}`,
          body: 'item-grid-spacer',
          rows: 'item-grid-rows',
        }}
        role={props.isGrouped ? 'treegrid' : 'grid'}
        label="Items"
        rowCount={gridRowCount(total)}
        colCount={gridColCount(columns.length)}
        isMultiselectable
        spacer={spacer}
        offset={offset}
        rowWidth={rowWidth}
        onKeyDown={focus.onKeyDown}
        onMouseDown={focus.onMouseDown}
        onFocus={focus.onFocus}
        onBlur={focus.onBlur}
        onDoubleClick={focus.onDoubleClick}
        header={
          <GridHeader
            columns={columns}
            keys={keys}
            sort={props.sort}
            width={rowWidth}
            pinned={shown.pinned}
            activeCol={tab.row < 0 ? tab.col : undefined}
            onSort={props.onSort}
          />
        }
      >
        {rows.map((index) => {
          const entry = cache.entry(index);
          const top = rowTop(index);
          const activeCol = index === tab.row ? tab.col : undefined;
          if (entry?.type === 'header') {
            const { header } = entry;
            return (
              <CollectionRow
                key={index}
                index={index}
                header={header}
                isSelected={isCollectionSelected(props.selected, header)}
                width={rowWidth}
                top={top}
                colSpan={columns.length}
                activeCol={activeCol}
                onToggle={props.onToggleCollection ?? noCollectionAction}
                onSelect={props.onSelectCollection ?? noCollectionAction}
              />
            );
          }
          const position = entry?.position ?? index;
          const item = entry?.item;
          const rowKey = item === undefined ? undefined : rowKeyText(item, keys);
          const staged = rowKey === undefined ? undefined : props.staged?.get(rowKey);
          const isStaged = rowKey !== undefined && props.staged?.has(rowKey) === true;
          return (
            <GridRow
              mark={isStaged ? 'staged' : entry?.mark}
              key={index}
              index={index}
              position={position}
              item={item}
              staged={staged}
              pinned={pinnedColumns}
              columns={rowColumns}
              firstCol={shown.from + 1}
              leftPad={shown.leftPad}
              keys={keys}
              isSelected={isRowSelected(props.selected, item, keys)}
              isGrouped={props.isGrouped}
              width={rowWidth}
              top={top}
              activeCol={activeCol}
              rangeLeft={isInRangeRow(index) ? focus.range?.left : undefined}
              rangeRight={isInRangeRow(index) ? focus.range?.right : undefined}
              editor={item ? editorNode(index, item) : undefined}
              onToggleRow={props.onToggleRow}
              onExpand={props.onExpand}
            />
          );
        })}
      </VirtualGrid>
      <span className="visually-hidden" role="status">
        {focus.announcement}
      </span>
    </div>
  );
}
