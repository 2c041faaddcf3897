import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/*
 * The one vertical virtualization of DynoTable's result grids (the item grid and the SQL
 * results grid): fixed-height rows, a sticky header row inside the scroller, only the rows in
 * view (plus a few) rendered, scroll heights capped and mapped past what browsers can hold.
 */

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
