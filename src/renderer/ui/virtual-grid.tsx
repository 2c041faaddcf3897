import type { FocusEventHandler, KeyboardEventHandler, MouseEventHandler, ReactNode, RefObject } from 'react';
import { ROW_HEIGHT, rowWindow, useScrollFrame } from './virtual-rows';

/**
 * Rows sit at fixed places relative to an anchor row, and only their container moves: rows that
 * stay in view keep their pixels (no repaint), only rows coming into view are painted. The anchor
 * steps every ANCHOR_STEP rows, which repositions the rows in view once.
 */
const ANCHOR_STEP = 1024;

/** The scroll frame of a virtual grid and the rows it renders for it. */
export function useVirtualRows(scroller: RefObject<HTMLDivElement | null>, total: number) {
  const frame = useScrollFrame(scroller);
  const { spacer, virtualTop, first, last } = rowWindow(frame.scrollTop, frame.height, total);
  const anchor = first - (first % ANCHOR_STEP);
  return {
    ...frame,
    spacer,
    virtualTop,
    first,
    last,
    /** The rows container's offset, and each row's place in it. */
    offset: frame.scrollTop + (anchor * ROW_HEIGHT - virtualTop),
    rowTop: (index: number) => (index - anchor) * ROW_HEIGHT,
  };
}

export interface VirtualGridProps {
  scroller: RefObject<HTMLDivElement | null>;
  /** The scroller's, the tall body's and the moving rows container's classes. */
  classes: { scroller: string; body: string; rows: string };
  role?: 'grid' | 'treegrid';
  label: string;
  /** aria-rowcount/aria-colcount: every row (the header is row 1) and column, not those rendered. */
  rowCount: number;
  colCount: number;
  isMultiselectable?: boolean;
  /** The header row, sticky at the top of the scroller. */
  header: ReactNode;
  /** From useVirtualRows. */
  spacer: number;
  offset: number;
  rowWidth: number;
  /** The rows in view, each placed at its rowTop. */
  children: ReactNode;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  onMouseDown?: MouseEventHandler<HTMLDivElement>;
  onFocus?: FocusEventHandler<HTMLDivElement>;
  onBlur?: FocusEventHandler<HTMLDivElement>;
  onDoubleClick?: MouseEventHandler<HTMLDivElement>;
}

/**
 * The one virtual grid of DynoTable's result grids (the item grid and the SQL results grid): an
 * ARIA grid over the whole result whose DOM holds only the header and the rows in view, inside a
 * spacer as tall as every row (ui/virtual-rows). Each feature supplies its header and rows.
 */
export function VirtualGrid({
  scroller,
  classes,
  role = 'grid',
  label,
  rowCount,
  colCount,
  isMultiselectable,
  header,
  spacer,
  offset,
  rowWidth,
  children,
  ...handlers
}: VirtualGridProps) {
  return (
    <div
      className={classes.scroller}
      ref={scroller}
      role={role}
      aria-label={label}
      aria-rowcount={rowCount}
      aria-colcount={colCount}
      aria-multiselectable={isMultiselectable ? true : undefined}
      {...handlers}
    >
      {header}
      <div className={classes.body} style={{ height: spacer, width: rowWidth }}>
        <div className={classes.rows} style={{ transform: `translateY(${offset}px)` }}>
          {children}
        </div>
      </div>
    </div>
  );
}
