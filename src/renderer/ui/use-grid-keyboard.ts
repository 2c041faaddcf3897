import {
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import type { Envelope } from '../../shared/errors';
import { colIndexOf, nextPoint, rowIndexOf, type GridPoint, type GridSize } from './grid-keys';
import {
  cellBounds,
  copyProblem,
  rangeBounds,
  rangeSize,
  rowCountOf,
  tsvText,
  type RangeBounds,
} from './grid-range';
import { isColumnShown, type ShownColumns } from './grid-columns';
import { ROW_HEIGHT, scrollTopShowing, type useScrollFrame } from './virtual-rows';

/** How a grid's rows become copied text: the grid's own row type R (an item entry, a SQL row). */
export interface GridCopy<R> {
  /** The row at a position if it is held now (undefined while it is loading). */
  rowAt(row: number): R | undefined;
  /** Rows [first, last] for a range copy, read through the grid's window cache where not held. */
  readRows(first: number, last: number): Promise<Envelope<R[]>>;
  /** What Ctrl+C copies from a cell; `isRange` when it is one field of a range's text. */
  cellText(row: R, col: number, isRange: boolean): string;
  /** A data column's name, for the header line of Ctrl+Shift+C. */
  columnName(col: number): string;
}

export interface GridKeyboardInput<R> {
  scroller: RefObject<HTMLDivElement | null>;
  size: GridSize;
  /** The focused cell (clamped to the grid), and the cell that is the tab stop now (see tabStopOf). */
  point: GridPoint;
  tab: GridPoint;
  /** An editor open in the tab stop's cell holds focus there. */
  isEditingTab?: boolean;
  frame: Pick<ReturnType<typeof useScrollFrame>, 'height' | 'width' | 'scrollTo'>;
  /** The scrollLeft that shows grid column `col` (> 0) beside the pinned columns. */
  scrollLeftShowing(col: number, scrollLeft: number): number;
  setActive(point: GridPoint): void;
  copy: GridCopy<R>;
  /** The grid's own keys (Enter, Space, …), tried before the moves: true when it took the key. */
  onKey?(event: KeyboardEvent, point: GridPoint): boolean;
}

/**
 * The cell that is the tab stop: the focused cell, or while it is out of the DOM (its row
 * scrolled away) the same column in the first row in view, or the lead column while its column is
 * scrolled away sideways. The header row renders every column.
 */
export function tabStopOf(
  point: GridPoint,
  rows: { first: number; last: number; virtualTop: number; total: number },
  shown: ShownColumns,
): GridPoint {
  const firstInView = Math.min(rows.total - 1, Math.ceil(rows.virtualTop / ROW_HEIGHT));
  const row = point.row < 0 || (point.row >= rows.first && point.row <= rows.last) ? point.row : firstInView;
  return { row, col: row < 0 || isColumnShown(shown, point.col) ? point.col : 0 };
}

/** The rendered element of a grid cell: a spanning cell stands for every column it covers. */
function cellElement(grid: HTMLElement, { row, col }: GridPoint): HTMLElement | null {
  const rowElement = grid.querySelector(`[role="row"][aria-rowindex="${rowIndexOf(row)}"]`);
  if (!rowElement) return null;
  return (
    rowElement.querySelector<HTMLElement>(`:scope > [aria-colindex="${colIndexOf(col)}"]`) ??
    (col > 0 ? rowElement.querySelector<HTMLElement>(':scope > [aria-colspan]') : null)
  );
}

/** The grid point of a cell element (or of anything inside one). */
export function pointOf(target: Element): GridPoint | undefined {
  const cell = target.closest('[aria-colindex]');
  const row = cell?.closest('[role="row"]');
  if (!cell || !row) return undefined;
  return {
    row: Number(row.getAttribute('aria-rowindex')) - rowIndexOf(0),
    col: Number(cell.getAttribute('aria-colindex')) - colIndexOf(0),
  };
}

/**
 * The one keyboard model of the result grids (the item grid and the SQL results grid) and its
 * focus: one cell is the tab stop (roving tabindex), arrows, Home/End, PageUp/PageDown and
 * Ctrl+Home/End move it through every row of the result, scrolling as a wheel would (the rows'
 * blocks are fetched as for any scroll), Ctrl+C copies the cell's value as text. Focus follows the
 * moves; when the focused cell leaves the DOM (a wheel scroll), focus goes to the tab stop.
 * The same keys with Shift, or Shift+click, select a range of cells from where the focus was
 * (ui/grid-range); Ctrl+C copies it as tab-separated text, Ctrl+Shift+C with its column names
 * first, and Escape or a move without Shift clears it.
 */
export function useGridKeyboard<R>(input: GridKeyboardInput<R>) {
  const { scroller, size, point, tab, isEditingTab, frame, setActive } = input;
  /** Whether the grid holds focus (or lost it only because its cell was removed). */
  const hasFocus = useRef(false);
  /** Set by a keyboard move or a finished edit: focus goes to the tab stop on the next render. */
  const wantsFocus = useRef(false);
  const focusing = useRef<HTMLElement | null>(null);
  /** What a polite live region next to the grid says (a range's size, a copy done or refused). */
  const [announcement, setAnnouncement] = useState('');
  /** Where a range started; the focused cell is its other corner. */
  const [anchor, setAnchor] = useState<GridPoint>();
  const range = anchor ? rangeBounds(anchor, point, size) : undefined;

  useLayoutEffect(() => {
    const grid = scroller.current;
    if (!grid || !hasFocus.current || isEditingTab) return;
    const isLost = !grid.contains(document.activeElement);
    if (!isLost && !wantsFocus.current) return;
    const element = cellElement(grid, tab);
    if (!element) return;
    wantsFocus.current = false;
    if (document.activeElement !== element) {
      focusing.current = element;
      element.focus({ preventScroll: true });
      focusing.current = null;
    }
    if (tab.row !== point.row || tab.col !== point.col) setActive(tab);
  });

  /** Moves the focused cell; with `isExtending` the range grows from the anchor (or starts here). */
  const moveTo = (next: GridPoint, isExtending = false): void => {
    const from = isExtending ? (anchor ?? point) : undefined;
    setAnchor(from);
    if (from) {
      const bounds = rangeBounds(from, next, size);
      setAnnouncement(bounds ? `${rangeSize(bounds)} selected.` : '');
    }
    setActive(next);
    wantsFocus.current = true;
    frame.scrollTo({
      top: (current) =>
        next.row < 0 ? current : scrollTopShowing(next.row, current, frame.height, size.rows),
      // The lead column and the pinned columns are in view wherever the grid is scrolled.
      left: (current) => (next.col > 0 ? input.scrollLeftShowing(next.col, current) : current),
    });
  };

  const write = (text: string, done: string): void => {
    void navigator.clipboard.writeText(text).then(
      () => setAnnouncement(done),
      (error: unknown) =>
        setAnnouncement(`Could not copy: ${error instanceof Error ? error.message : String(error)}`),
    );
  };

  /** A range as tab-separated text, its rows read first where they are not loaded. */
  const copyRange = async (bounds: RangeBounds, withHeader: boolean): Promise<void> => {
    const problem = copyProblem(bounds);
    if (problem) {
      setAnnouncement(problem);
      return;
    }
    setAnnouncement(`Copying ${rangeSize(bounds)}…`);
    const read = await input.copy.readRows(bounds.top, bounds.bottom);
    if (!read.ok) {
      setAnnouncement(`Nothing copied: ${read.error.message}`);
      return;
    }
    if (read.value.length < rowCountOf(bounds)) {
      setAnnouncement(
        'Nothing copied: the result holds fewer rows than were selected now. Select them again.',
      );
      return;
    }
    const cols: number[] = [];
    for (let col = bounds.left; col <= bounds.right; col++) cols.push(col);
    const lines = read.value.map((row) => cols.map((col) => input.copy.cellText(row, col, true)));
    if (withHeader) lines.unshift(cols.map((col) => input.copy.columnName(col)));
    write(tsvText(lines), `Copied ${rangeSize(bounds)}${withHeader ? ' with column names' : ''}.`);
  };

  /** Ctrl+C: the range, or the focused cell's value; Ctrl+Shift+C: the same with column names. */
  const copy = (withHeader: boolean): void => {
    if (range || withHeader) {
      void copyRange(range ?? cellBounds(point, size), withHeader);
      return;
    }
    const row = input.copy.rowAt(point.row);
    if (row === undefined) {
      setAnnouncement('Nothing copied: the row is still loading.');
      return;
    }
    const text = input.copy.cellText(row, point.col, false);
    write(text, text === '' ? 'Copied an empty value.' : 'Copied.');
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.altKey) return;
    if (input.onKey?.(event, point)) return;
    const isMod = event.ctrlKey || event.metaKey;
    if (isMod && event.key.toLowerCase() === 'c' && (point.row >= 0 || range)) {
      // A selection of text inside the grid (the mouse) is the browser's to copy.
      if (!range && window.getSelection()?.isCollapsed === false) return;
      event.preventDefault();
      copy(event.shiftKey);
      return;
    }
    if (event.key === 'Escape' && anchor) {
      event.preventDefault();
      setAnchor(undefined);
      setAnnouncement('Selection cleared.');
      return;
    }
    const next = nextPoint(point, event, size);
    if (!next) return;
    event.preventDefault();
    moveTo(next, event.shiftKey);
  };

  /** Shift+click on a cell: the range from the focused cell (or the range's start) to it. */
  const onMouseDown = (event: MouseEvent): void => {
    if (!event.shiftKey || event.button !== 0 || !(event.target instanceof Element)) return;
    // The selection column's checkbox has a Shift+click of its own (a range of selected items).
    if (event.target.closest('button, input, a, .cell-editor')) return;
    const at = pointOf(event.target);
    if (!at || at.row < 0) return;
    // No text selection, and focus stays where moveTo puts it.
    event.preventDefault();
    moveTo(at, true);
  };

  const onFocus = (event: FocusEvent): void => {
    hasFocus.current = true;
    if (event.target === focusing.current) return;
    // A click (or a screen reader) put focus on a cell: it becomes the focused cell.
    const at = pointOf(event.target);
    if (at && (at.row !== point.row || (at.col !== point.col && !event.target.closest('[aria-colspan]')))) {
      setAnchor(undefined);
      setActive(at);
    }
  };

  const onBlur = (event: FocusEvent): void => {
    const next = event.relatedTarget;
    if (next instanceof Node && scroller.current?.contains(next)) return;
    if (next) {
      hasFocus.current = false;
      return;
    }
    // Focus went nowhere: a click outside, or the focused cell left the DOM (then focus comes
    // back to the cell in view). Which one shows once the removal is done.
    const { target } = event;
    queueMicrotask(() => {
      if (target.isConnected) hasFocus.current = false;
    });
  };

  /** Focus goes back to the tab stop on the next render (an edit finished, a panel closed). */
  const refocus = (): void => {
    wantsFocus.current = true;
  };

  return { onKeyDown, onFocus, onBlur, onMouseDown, refocus, announcement, range };
}
