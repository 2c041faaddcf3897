import { useLayoutEffect, type RefObject } from 'react';

/** What the box's ellipsis measures in its own font (the canvas measures text as the page draws it). */
function ellipsisWidth(box: HTMLElement): number | undefined {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return undefined;
  context.font = getComputedStyle(box).font;
  return context.measureText('…').width;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * Cuts a one-line name at a whole character, so its ellipsis ends where its box does. Flex
 * shrinking gives the box any width and the ellipsis follows the last character that fits, which
 * left up to a character's width blank after it: at 1024 px about 18 px stood between a table's
 * cut name and its "active" badge, against the header's 10 px gap elsewhere. The box becomes as
 * wide as the longest start of the name that leaves room for the ellipsis, measured in the page
 * (any font, monospace or not; never between the halves of a surrogate pair). It is measured
 * again whenever it, its row or the row's own container changes size; `layout` names anything
 * else that changes its room (a badge, the set of views). The box holds the name as its one text
 * node.
 *
 * The container is watched because a row may take its width from what it holds: the assistant's
 * model line is a button, as wide as the name cut to fit, so a wider dock left its width (and the
 * name's) unchanged and nothing measured again. The name stayed cut to "cl…" at 1024 px, in a
 * 280 px line, after the window had been at 1440 px, where the line beside the header's buttons
 * is 89 px.
 */
export function useWholeCharacterWidth(ref: RefObject<HTMLElement | null>, text: string, layout = ''): void {
  useLayoutEffect(() => {
    const box = ref.current;
    const row = box?.parentElement;
    if (!box || !row || text.length === 0) return;
    const fit = () => {
      box.style.maxWidth = '';
      const node = box.firstChild;
      if (!(node instanceof Text) || node !== box.lastChild) return;
      const room = box.getBoundingClientRect().width;
      // The text's own width, to the fraction of a pixel (scrollWidth rounds, and a rounded
      // width undershoots a whole character by enough to lose the last one).
      const range = document.createRange();
      const widthTo = (end: number): number => {
        range.setStart(node, 0);
        range.setEnd(node, end);
        return range.getBoundingClientRect().width;
      };
      if (widthTo(node.length) <= room) return;
      const ellipsis = ellipsisWidth(box);
      if (ellipsis === undefined) return;
      let low = 0;
      let high = node.length;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (widthTo(middle) + ellipsis <= room) low = middle;
        else high = middle - 1;
      }
      if (low > 0 && isHighSurrogate(node.data.charCodeAt(low - 1))) low -= 1;
      box.style.maxWidth = `${widthTo(low) + ellipsis + 0.25}px`;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(box);
    observer.observe(row);
    if (row.parentElement) observer.observe(row.parentElement);
    return () => {
      observer.disconnect();
      box.style.maxWidth = '';
    };
  }, [ref, text, layout]);
}
