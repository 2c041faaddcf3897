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
 * The scroll position and height of the grid's scroller. Read once per animation frame from a
 * passive listener and rendered right away (flushSync), so each frame does one layout and the
 * rows move with the scrollbar, never a frame behind.
 */
export function useScrollFrame(scroller: RefObject<HTMLDivElement | null>): {
  scrollTop: number;
  height: number;
} {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // A ResizeObserver reports the first size as soon as it observes, then every change.
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
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
        flushSync(() => setScrollTop(element.scrollTop));
      });
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [scroller]);

  return { scrollTop, height };
}
