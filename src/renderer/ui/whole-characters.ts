import { useLayoutEffect, type RefObject } from 'react';

/**
 * Cuts a one-line name in a monospace font at a whole character, so its ellipsis ends where its
 * box does. Flex shrinking gives the box any width and the ellipsis follows the last character
 * that fits, which left up to a character's width blank after it: at 1024 px about 18 px stood
 * between a table's cut name and its "active" badge, against the header's 10 px gap elsewhere.
 * The box is measured again whenever it or its row changes size; `layout` names anything else
 * that changes its room (a badge, the set of views). Table names are ASCII, one code unit each.
 */
export function useWholeCharacterWidth(ref: RefObject<HTMLElement | null>, text: string, layout = ''): void {
  useLayoutEffect(() => {
    const box = ref.current;
    const row = box?.parentElement;
    if (!box || !row || text.length === 0) return;
    const fit = () => {
      box.style.maxWidth = '';
      const room = box.getBoundingClientRect().width;
      // The text's own width, to the fraction of a pixel (scrollWidth rounds, and a rounded
      // character width undershoots a whole one by enough to lose the last character).
      const range = document.createRange();
      range.selectNodeContents(box);
      const whole = range.getBoundingClientRect().width;
      if (whole <= room) return;
      const character = whole / text.length;
      box.style.maxWidth = `${Math.floor(room / character) * character + 0.25}px`;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(row);
    observer.observe(box);
    return () => {
      observer.disconnect();
      box.style.maxWidth = '';
    };
  }, [ref, text, layout]);
}
