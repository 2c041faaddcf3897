import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { KeySchema } from '../../../../shared/ipc/tables';

export const ROW_HEIGHT = 28;
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

  return { scrollTop, scrollLeft, height, width };
}

/** Width of the row's checkbox column, before the attribute columns. */
export const CHECK_WIDTH = 36;
/** Columns kept in the DOM on each side beyond the visible ones, so a short sideways scroll shows cells already laid out. */
const COLUMN_OVERSCAN_PX = 400;

/**
 * The columns a row renders: those that intersect the visible width (plus a margin), and the
 * width of the columns left out on the left. A row of 15 columns is ~2,600 px wide while the
 * grid shows ~1,300: laying out and painting only these halves each new row's cost.
 */
export function visibleColumns(
  columns: string[],
  keys: KeySchema,
  scrollLeft: number,
  width: number,
): { from: number; to: number; leftPad: number } {
  const start = scrollLeft - COLUMN_OVERSCAN_PX;
  const end = scrollLeft + width + COLUMN_OVERSCAN_PX;
  let at = CHECK_WIDTH;
  let from = columns.length;
  let to = columns.length;
  let leftPad = 0;
  for (let i = 0; i < columns.length; i++) {
    const w = columnWidth(columns[i] ?? '', keys);
    if (from === columns.length && at + w > start) {
      from = i;
      leftPad = at - CHECK_WIDTH;
    }
    if (at >= end) {
      to = i;
      break;
    }
    at += w;
  }
  return { from, to, leftPad };
}
