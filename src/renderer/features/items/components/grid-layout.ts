import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { KeySchema } from '../../../../shared/ipc/tables';

export const ROW_HEIGHT = 28;
/** The sticky column headers inside the scroller (items.css sets the same height). */
export const HEADER_HEIGHT = 30;
/** Rows rendered above and below the ones in view. */
const OVERSCAN = 3;
/** Browsers cap an element's height (~33M px in Chromium); past this the scroll is scaled. */
const MAX_SCROLL_PX = 15_000_000;

export interface RowWindow {
  /** The spacer's height: the full height, or the cap when a scaled scroll stands in for it. */
  spacer: number;
  /** Rows of full height per pixel of scrollbar (1 below the cap). */
  scale: number;
  /** Where the scroll position is in the full, unscaled height. */
  virtualTop: number;
  first: number;
  last: number;
}

/** The rows to render for a scroll position: those in view plus OVERSCAN on each side. */
export function rowWindow(scrollTop: number, height: number, total: number): RowWindow {
  const fullHeight = total * ROW_HEIGHT;
  const spacer = Math.min(fullHeight, MAX_SCROLL_PX);
  const scale = fullHeight > spacer && spacer > height ? (fullHeight - height) / (spacer - height) : 1;
  const virtualTop = scrollTop * scale;
  const first = Math.max(0, Math.floor(virtualTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total - 1, Math.ceil((virtualTop + height) / ROW_HEIGHT) + OVERSCAN);
  return { spacer, scale, virtualTop, first, last };
}

/**
 * The scroll position that shows row `row` whole below the sticky header, moving as little as
 * possible (the same position when it is in view already). A row sits at
 * HEADER_HEIGHT + row * ROW_HEIGHT - virtualTop in the scroller's viewport.
 */
export function scrollTopShowing(row: number, scrollTop: number, height: number, total: number): number {
  const { scale, virtualTop } = rowWindow(scrollTop, height, total);
  const rowTop = row * ROW_HEIGHT;
  if (virtualTop > rowTop) return Math.floor(rowTop / scale);
  const lowest = rowTop + ROW_HEIGHT + HEADER_HEIGHT - height;
  if (virtualTop < lowest) return Math.ceil(lowest / scale);
  return scrollTop;
}

/** Whole rows the viewport shows below the header: how far PageUp/PageDown move. */
export function rowsPerPage(height: number): number {
  return Math.max(1, Math.floor((height - HEADER_HEIGHT) / ROW_HEIGHT));
}
/** The entity-type column is computed, not an attribute; no attribute name starts with NUL. */
export const ENTITY_COLUMN = '\u0000entity';

export function columnWidth(column: string, keys: KeySchema): number {
  if (column === keys.partitionKey.name || column === keys.sortKey?.name) return 200;
  return column === ENTITY_COLUMN ? 110 : 170;
}

/**
 * The scroll position and size of the grid's scroller. Read once per animation frame from a
 * passive listener and rendered right away (flushSync), so each frame does one layout and the
 * rows move with the scrollbar, never a frame behind.
 */
export function useScrollFrame(scroller: RefObject<HTMLDivElement | null>): {
  scrollTop: number;
  scrollLeft: number;
  height: number;
  width: number;
  /** Scrolls to positions computed from the current ones, rendering them with the caller's update. */
  scrollTo(to: { top: (current: number) => number; left: (current: number) => number }): void;
} {
  const [scrollTop, setScrollTop] = useState(0);
  const [scrollLeft, setScrollLeft] = useState(0);
  const [height, setHeight] = useState(600);
  const [width, setWidth] = useState(1200);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // A ResizeObserver reports the first size as soon as it observes, then every change.
    const observer = new ResizeObserver(() => {
      setHeight(element.clientHeight);
      setWidth(element.clientWidth);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [scroller]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = (): void => {
      if (frame.current !== 0) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        // An unchanged value is no re-render: a vertical scroll leaves scrollLeft alone.
        flushSync(() => {
          setScrollTop(element.scrollTop);
          setScrollLeft(element.scrollLeft);
        });
      });
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [scroller]);

  // A keyboard move scrolls the focused cell into view: the rows it needs render in the same
  // commit as the move, so the cell to focus exists at once (no frame without it).
  const scrollTo = (to: { top: (current: number) => number; left: (current: number) => number }): void => {
    const element = scroller.current;
    if (!element) return;
    const top = to.top(element.scrollTop);
    const left = to.left(element.scrollLeft);
    if (top !== element.scrollTop || left !== element.scrollLeft)
      element.scrollTo({ top, left, behavior: 'instant' });
    // Read back: the browser clamps and rounds what it is given.
    setScrollTop(element.scrollTop);
    setScrollLeft(element.scrollLeft);
  };
  return { scrollTop, scrollLeft, height, width, scrollTo };
}

/** Width of the row's checkbox column, before the attribute columns. */
export const CHECK_WIDTH = 36;

/** Where column `index` of `columns` starts, from the row's left edge (after the selection column). */
export function columnLeft(columns: string[], keys: KeySchema, index: number): number {
  let left = CHECK_WIDTH;
  for (let i = 0; i < index; i++) left += columnWidth(columns[i] ?? '', keys);
  return left;
}

/**
 * How many leading columns stay pinned at the left (with the selection column) while the grid
 * scrolls sideways: the table's key attributes, when they lead the column order. A row is
 * recognisable only by its key; a hidden or moved key column is not pinned.
 */
export function pinnedCount(columns: string[], keys: KeySchema): number {
  let count = 0;
  while (count < columns.length && isKey(columns[count] ?? '', keys)) count += 1;
  return count;
}

function isKey(column: string, keys: KeySchema): boolean {
  return column === keys.partitionKey.name || column === keys.sortKey?.name;
}

/**
 * The scrollLeft that shows column `index` of `columns` whole beside the pinned columns, or the
 * same one if it does. A pinned column is always in view.
 */
export function scrollLeftShowing(
  columns: string[],
  keys: KeySchema,
  index: number,
  scrollLeft: number,
  width: number,
): number {
  if (index < 0) return 0;
  const pinned = pinnedCount(columns, keys);
  if (index < pinned) return scrollLeft;
  const pinnedRight = columnLeft(columns, keys, pinned);
  const left = columnLeft(columns, keys, index);
  const right = left + columnWidth(columns[index] ?? '', keys);
  if (left - pinnedRight < scrollLeft) return left - pinnedRight;
  if (right > scrollLeft + width) return right - width;
  return scrollLeft;
}
/** Columns kept in the DOM on each side beyond the visible ones, so a short sideways scroll shows cells already laid out. */
const COLUMN_OVERSCAN_PX = 400;

/**
 * The columns a row renders after the pinned ones: those that intersect the visible width (plus
 * a margin), and the width of the unpinned columns left out on the left. A row of 15 columns is
 * ~2,600 px wide while the grid shows ~1,300: laying out and painting only these halves each new
 * row's cost. The pinned columns (`pinnedCount`) are always rendered, sticky at the left.
 */
export function visibleColumns(
  columns: string[],
  keys: KeySchema,
  scrollLeft: number,
  width: number,
): { pinned: number; from: number; to: number; leftPad: number } {
  const pinned = pinnedCount(columns, keys);
  const start = scrollLeft - COLUMN_OVERSCAN_PX;
  const end = scrollLeft + width + COLUMN_OVERSCAN_PX;
  const pinnedRight = columnLeft(columns, keys, pinned);
  let at = pinnedRight;
  let from = columns.length;
  let to = columns.length;
  let leftPad = 0;
  for (let i = pinned; i < columns.length; i++) {
    const w = columnWidth(columns[i] ?? '', keys);
    if (from === columns.length && at + w > start) {
      from = i;
      leftPad = at - pinnedRight;
    }
    if (at >= end) {
      to = i;
      break;
    }
    at += w;
  }
  return { pinned, from, to, leftPad };
}
