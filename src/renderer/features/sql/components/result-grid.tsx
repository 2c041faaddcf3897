import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { call } from '../../../ipc/client';
import { spokenValue, valueText } from '../../../ui/cell-text';
import { columnLayout, rowWidthOf, scrollLeftToShow, shownColumns } from '../../../ui/grid-columns';
import {
  clampPoint,
  colIndexOf,
  gridColCount,
  gridRowCount,
  rowIndexOf,
  type GridPoint,
} from '../../../ui/grid-keys';
import { tsvText } from '../../../ui/grid-range';
import { pointOf, tabStopOf, useGridKeyboard } from '../../../ui/use-grid-keyboard';
import { ValuePopover } from '../../../ui/value-popover';
import { useVirtualRows, VirtualGrid } from '../../../ui/virtual-grid';
import { rowsPerPage } from '../../../ui/virtual-rows';
import { WindowCache } from '../../../ui/window-cache';
import { SqlCell } from './sql-cell';

const BLOCK_ROWS = 200;
/** 80 blocks of 200 rows: what a grid shows plus a long way back, never the whole result. */
const MAX_BLOCKS = 80;

type Values = (AttributeValue | null)[];
/** A row of a result, with the key of its item when the result's rows link to items. */
interface ResultRow {
  values: Values;
  key?: Item;
}

/** The SQL result's rows, a block at a time over sql:window, in the one renderer window cache. */
function resultWindows(resultId: string): WindowCache<ResultRow> {
  return new WindowCache<ResultRow>({
    blockRows: BLOCK_ROWS,
    maxBlocks: MAX_BLOCKS,
    read: async (offset, limit) => {
      const envelope = await call('sql:window', { resultId, offset, limit });
      if (!envelope.ok) return envelope;
      const { rows, keys } = envelope.value;
      return {
        ok: true,
        value: rows.map((values, i) => ({ values, ...(keys?.[i] ? { key: keys[i] } : {}) })),
      };
    },
  });
}

export interface ResultGridProps {
  resultId: string;
  total: number;
  columns: string[];
  columnTypes: string[];
  /** The table rows link to (each row is one of its items). */
  source?: string;
  onOpenRow?(key: Item): void;
}

/** The row-number column, pinned at the left like the item grid's selection and key columns. */
const ROWNUM_WIDTH = 56;

interface ResultRowViewProps {
  index: number;
  row: ResultRow | undefined;
  columns: string[];
  columnTypes: string[];
  widths: readonly number[];
  /** The columns in view: [from, to) after a gap of leftPad px (ui/grid-columns). */
  from: number;
  to: number;
  leftPad: number;
  width: number;
  top: number;
  /** The grid column that is the grid's one tab stop, when it is in this row. */
  activeCol?: number;
  /** The data columns [left, right] of a selected range, when it covers this row. */
  rangeLeft?: number;
  rangeRight?: number;
  source?: string;
  onOpenRow?(key: Item): void;
}

/**
 * One result row: its number (pinned), then only the cells in view. Memoized, so while scrolling
 * only the rows that come into view render. Loading rows render the same cells, empty, so a
 * focused cell keeps its element when its block arrives.
 */
const ResultRowView = memo(function ResultRowView(props: ResultRowViewProps) {
  const { index, row, columns, columnTypes, widths, activeCol, onOpenRow } = props;
  const key = onOpenRow ? row?.key : undefined;
  const cells = [];
  for (let j = props.from; j < props.to; j++) {
    const column = columns[j] ?? '';
    const value = row?.values[j];
    const col = j + 1;
    const isActive = activeCol === col;
    const isInRange =
      props.rangeLeft !== undefined && col >= props.rangeLeft && col <= (props.rangeRight ?? 0);
    cells.push(
      <span
        key={j}
        role="gridcell"
        aria-colindex={colIndexOf(col)}
        tabIndex={isActive ? 0 : -1}
        aria-label={isActive ? `${column}: ${row ? spokenValue(value ?? undefined) : 'loading'}` : undefined}
        aria-selected={isInRange || undefined}
        className={`sql-cell${columnTypes[j] === 'N' ? ' is-number' : ''}${isInRange ? ' is-in-range' : ''}`}
        style={{ width: widths[j] }}
      >
        {row ? <SqlCell value={value} /> : <span className="sql-loading" />}
      </span>,
    );
  }
  const label = `Row ${(index + 1).toLocaleString('en-US')}${key ? `, Enter opens its item in ${props.source ?? 'its table'}` : ''}`;
  return (
    <div
      className={`sql-row${index % 2 === 1 ? ' is-odd' : ''}`}
      role="row"
      aria-rowindex={rowIndexOf(index)}
      style={{ top: props.top, width: props.width }}
    >
      <span
        className="sql-rownum"
        role="rowheader"
        aria-colindex={colIndexOf(0)}
        tabIndex={activeCol === 0 ? 0 : -1}
        aria-label={activeCol === 0 ? label : undefined}
        style={{ width: ROWNUM_WIDTH }}
      >
        {key && onOpenRow ? (
          <button
            type="button"
            className="sql-row-open"
            // The grid has one tab stop (its focused cell); Enter on the row number opens the item.
            tabIndex={-1}
            aria-label={`Open the item of row ${index + 1} in ${props.source ?? 'its table'}`}
            title={`Open this item of ${props.source ?? 'its table'} in the editor`}
            onClick={() => onOpenRow(key)}
          >
            {index + 1}
            <span aria-hidden="true"> ↗</span>
          </button>
        ) : (
          index + 1
        )}
      </span>
      {props.leftPad > 0 && <span className="sql-gap" style={{ width: props.leftPad }} aria-hidden="true" />}
      {cells}
    </div>
  );
});

/**
 * The SQL results on the one virtual grid (ui/virtual-grid), window cache (ui/window-cache),
 * horizontal window (ui/grid-columns) and keyboard model (ui/use-grid-keyboard) the item grid
 * uses: only the rows and columns in view exist in the DOM, only their blocks are read, results
 * past the browsers' height cap still scroll to their last row, and the keys move one focused
 * cell through all of it. This grid supplies its cells (exact numbers, nested values), Enter on a
 * cell shows its value in full, and the row numbers open a row's item.
 */
export function ResultGrid({ resultId, total, columns, columnTypes, source, onOpenRow }: ResultGridProps) {
  const cache = useMemo(() => resultWindows(resultId), [resultId]);
  const [, setVersion] = useState(0);
  useEffect(() => cache.subscribe(() => setVersion((v) => v + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const { scrollLeft, height, width, scrollTo, spacer, virtualTop, first, last, offset, rowTop } =
    useVirtualRows(scroller, total);
  useEffect(() => {
    if (total > 0) cache.ensure(first, last, total);
  }, [cache, first, last, total]);
  // Fixed widths: rows are laid out one by one, and the columns must line up across them.
  const layout = useMemo(
    () =>
      columnLayout(
        ROWNUM_WIDTH,
        columns.map((column, j) =>
          Math.min(360, Math.max(column.length * 8 + 28, columnTypes[j] === 'N' ? 110 : 180)),
        ),
      ),
    [columns, columnTypes],
  );
  const rowWidth = rowWidthOf(layout);
  const shown = shownColumns(layout, scrollLeft, width);

  const [active, setActive] = useState<GridPoint>({ row: 0, col: 1 });
  const [opened, setOpened] = useState<{ name: string; value: AttributeValue | null | undefined }>();
  const size = { rows: total, cols: columns.length, page: rowsPerPage(height) };
  const point = clampPoint(active, size);
  const tab = tabStopOf(point, { first, last, virtualTop, total }, shown);

  /** Enter, F2 or a double-click on a cell: its value in full; on a row number, its item. */
  const open = (at: GridPoint): boolean => {
    const row = at.row >= 0 ? cache.row(at.row) : undefined;
    if (!row) return false;
    if (at.col === 0) {
      if (!row.key || !onOpenRow) return false;
      onOpenRow(row.key);
      return true;
    }
    setOpened({ name: columns[at.col - 1] ?? '', value: row.values[at.col - 1] });
    return true;
  };
  const keyboard = useGridKeyboard({
    scroller,
    size,
    point,
    tab,
    frame: { height, width, scrollTo },
    scrollLeftShowing: (col, current) => scrollLeftToShow(layout, col - 1, current, width),
    setActive,
    copy: {
      rowAt: (row) => cache.row(row),
      readRows: (first, last) => cache.readRange(first, last),
      // The row number stands for the row: its values, tab-separated as spreadsheets paste them.
      cellText: ({ values }, col, isRange) =>
        col === 0 && !isRange ? tsvText([values.map((v) => valueText(v))]) : valueText(values[col - 1]),
      columnName: (col) => columns[col - 1] ?? '',
    },
    onKey: (event, at) => {
      if (event.key !== 'Enter' && event.key !== 'F2') return false;
      if (!open(at)) return false;
      event.preventDefault();
      return true;
    },
  });

  const { range } = keyboard;
  const rows = [];
  for (let i = first; i <= last; i++)
    rows.push(
      <ResultRowView
        key={i}
        index={i}
        row={cache.row(i)}
        columns={columns}
        columnTypes={columnTypes}
        widths={layout.widths}
        from={shown.from}
        to={shown.to}
        leftPad={shown.leftPad}
        width={rowWidth}
        top={rowTop(i)}
        activeCol={i === tab.row ? tab.col : undefined}
        rangeLeft={range && i >= range.top && i <= range.bottom ? range.left : undefined}
        rangeRight={range && i >= range.top && i <= range.bottom ? range.right : undefined}
        source={source}
        onOpenRow={onOpenRow}
      />,
    );
  const headerCol = tab.row < 0 ? tab.col : undefined;
  return (
    <>
      <VirtualGrid
        scroller={scroller}
        classes={{ scroller: 'sql-grid', body: 'sql-grid-body', rows: 'sql-grid-rows' }}
        label="Query results"
        rowCount={gridRowCount(total)}
        colCount={gridColCount(columns.length)}
        spacer={spacer}
        offset={offset}
        rowWidth={rowWidth}
        isMultiselectable={range !== undefined}
        onKeyDown={keyboard.onKeyDown}
        onMouseDown={keyboard.onMouseDown}
        onFocus={keyboard.onFocus}
        onBlur={keyboard.onBlur}
        onDoubleClick={(event) => {
          const at = event.target instanceof Element ? pointOf(event.target) : undefined;
          if (at && at.col > 0 && open(at)) setActive(at);
        }}
        header={
          <div
            className="sql-row sql-header"
            role="row"
            aria-rowindex={rowIndexOf(-1)}
            style={{ width: rowWidth }}
          >
            <span
              className="sql-rownum"
              role="columnheader"
              aria-colindex={colIndexOf(0)}
              tabIndex={headerCol === 0 ? 0 : -1}
              style={{ width: ROWNUM_WIDTH }}
            >
              #
            </span>
            {columns.map((column, j) => (
              <span
                key={j}
                role="columnheader"
                aria-colindex={colIndexOf(j + 1)}
                tabIndex={headerCol === j + 1 ? 0 : -1}
                className={columnTypes[j] === 'N' ? 'sql-cell is-number' : 'sql-cell'}
                style={{ width: layout.widths[j] }}
                title={`${column} (${columnTypes[j] ?? ''})`}
              >
                {column}
              </span>
            ))}
          </div>
        }
      >
        {rows}
      </VirtualGrid>
      <span className="visually-hidden" role="status">
        {keyboard.announcement}
      </span>
      {opened ? (
        <ValuePopover
          name={opened.name}
          value={opened.value}
          isPlain
          onClose={() => {
            setOpened(undefined);
            keyboard.refocus();
          }}
        />
      ) : null}
    </>
  );
}
