import { useEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { call } from '../../../ipc/client';
import { useVirtualRows, VirtualGrid } from '../../../ui/virtual-grid';
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

/**
 * The SQL results on the one virtual grid (ui/virtual-grid) and window cache (ui/window-cache)
 * the item grid uses: only rows in view exist in the DOM, only their blocks are read, and
 * results past the browsers' height cap still scroll to their last row. This grid supplies its
 * cells (exact numbers, nested values) and the row numbers that open a row's item.
 */
export function ResultGrid({ resultId, total, columns, columnTypes, source, onOpenRow }: ResultGridProps) {
  const cache = useMemo(() => resultWindows(resultId), [resultId]);
  const [, setVersion] = useState(0);
  useEffect(() => cache.subscribe(() => setVersion((v) => v + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const { spacer, first, last, offset, rowTop } = useVirtualRows(scroller, total);
  useEffect(() => {
    if (total > 0) cache.ensure(first, last, total);
  }, [cache, first, last, total]);
  // Fixed widths: every row is its own grid, and max-content would size each row differently.
  const widths = columns.map((column, j) =>
    Math.min(360, Math.max(column.length * 8 + 28, columnTypes[j] === 'N' ? 110 : 180)),
  );
  const template = `${ROWNUM_WIDTH}px ${widths.map((w) => `${w}px`).join(' ')}`;
  const rowWidth = ROWNUM_WIDTH + widths.reduce((sum, w) => sum + w, 0);
  const rows = [];
  for (let i = first; i <= last; i++) {
    const row = cache.row(i);
    const key = onOpenRow ? row?.key : undefined;
    rows.push(
      <div
        key={i}
        className={`sql-row${i % 2 === 1 ? ' is-odd' : ''}`}
        role="row"
        aria-rowindex={i + 2}
        style={{ top: rowTop(i), width: rowWidth, gridTemplateColumns: template }}
      >
        <span className="sql-rownum" role="rowheader">
          {key && onOpenRow ? (
            <button
              type="button"
              className="sql-row-open"
              aria-label={`Open the item of row ${i + 1} in ${source ?? 'its table'}`}
              title={`Open this item of ${source ?? 'its table'} in the editor`}
              onClick={() => onOpenRow(key)}
            >
              {i + 1}
              <span aria-hidden="true"> ↗</span>
            </button>
          ) : (
            i + 1
          )}
        </span>
        {columns.map((column, j) => (
          <span
            key={column}
            role="gridcell"
            className={columnTypes[j] === 'N' ? 'sql-cell is-number' : 'sql-cell'}
          >
            {row ? <SqlCell value={row.values[j]} /> : <span className="sql-loading" />}
          </span>
        ))}
      </div>,
    );
  }
  return (
    <VirtualGrid
      scroller={scroller}
      classes={{ scroller: 'sql-grid', body: 'sql-grid-body', rows: 'sql-grid-rows' }}
      label="Query results"
      rowCount={total + 1}
      colCount={columns.length + 1}
      spacer={spacer}
      offset={offset}
      rowWidth={rowWidth}
      header={
        <div
          className="sql-row sql-header"
          role="row"
          aria-rowindex={1}
          style={{ width: rowWidth, gridTemplateColumns: template }}
        >
          <span className="sql-rownum" role="columnheader">
            #
          </span>
          {columns.map((column, j) => (
            <span
              key={column}
              role="columnheader"
              className={columnTypes[j] === 'N' ? 'sql-cell is-number' : 'sql-cell'}
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
  );
}
