import {
  useLayoutEffect,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../../shared/dynamo/value-equality';
import type { RowCache } from '../row-cache';
import { colIndexOf, rowIndexOf } from './grid-aria';
import { nextPoint, type GridPoint, type GridSize } from './grid-keys';
import { ENTITY_COLUMN, scrollLeftShowing } from './grid-layout';
import { scrollTopShowing, type useScrollFrame } from '../../../ui/virtual-rows';
import { isCollectionSelected } from '../selection';
import { rowKeyText } from './grid-rows';
import { editText, inlineKind, parseInline, type InlineKind } from './inline-edit';
import type { ItemGridProps } from './item-grid';

/** An in-cell edit in progress; `rowKey` keeps it on its item if the row's position changes meaning. */
export interface Editing {
  row: number;
  col: number;
  rowKey: string;
  kind: InlineKind;
  text: string;
  problem?: string;
}

interface GridFocusInput {
  scroller: RefObject<HTMLDivElement | null>;
  cache: RowCache;
  props: ItemGridProps;
  columns: string[];
  size: GridSize;
  /** The focused cell (clamped to the grid), and the cell that is the tab stop now. */
  point: GridPoint;
  tab: GridPoint;
  editing: Editing | undefined;
  frame: Pick<ReturnType<typeof useScrollFrame>, 'height' | 'width' | 'scrollTo'>;
  setActive(point: GridPoint): void;
  setEditing(editing: Editing | undefined): void;
}

/** The rendered element of a grid cell: a spanning collection cell stands for every column it covers. */
function cellElement(grid: HTMLElement, { row, col }: GridPoint): HTMLElement | null {
  const rowElement = grid.querySelector(`[role="row"][aria-rowindex="${rowIndexOf(row)}"]`);
  if (!rowElement) return null;
  return (
    rowElement.querySelector<HTMLElement>(`:scope > [aria-colindex="${colIndexOf(col)}"]`) ??
    (col > 0 ? rowElement.querySelector<HTMLElement>(':scope > [aria-colspan]') : null)
  );
}

/** The grid point of a cell element (or of anything inside one). */
function pointOf(target: Element): GridPoint | undefined {
  const cell = target.closest('[aria-colindex]');
  const row = cell?.closest('[role="row"]');
  if (!cell || !row) return undefined;
  return {
    row: Number(row.getAttribute('aria-rowindex')) - rowIndexOf(0),
    col: Number(cell.getAttribute('aria-colindex')) - colIndexOf(0),
  };
}

/**
 * The grid's keyboard model and its focus: one cell is the tab stop (roving tabindex), keys move
 * it through every row of the result set, scrolling as they go (the rows' blocks are fetched as
 * for any scroll), Space selects, Enter/F2 or a double-click edits. Focus follows the moves; when the focused
 * cell leaves the DOM (a wheel scroll), focus goes to the same column in the first row in view.
 */
export function useGridFocus(input: GridFocusInput) {
  const { scroller, cache, props, columns, size, point, tab, editing, frame, setActive, setEditing } = input;
  const { keys } = props;
  /** Whether the grid holds focus (or lost it only because its cell was removed). */
  const hasFocus = useRef(false);
  /** Set by a keyboard move or a finished edit: focus goes to the tab stop on the next render. */
  const wantsFocus = useRef(false);
  const focusing = useRef<HTMLElement | null>(null);

  useLayoutEffect(() => {
    const grid = scroller.current;
    if (!grid || !hasFocus.current) return;
    if (editing && editing.row === tab.row && editing.col === tab.col) return;
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

  const moveTo = (next: GridPoint): void => {
    setActive(next);
    wantsFocus.current = true;
    frame.scrollTo({
      top: (current) =>
        next.row < 0 ? current : scrollTopShowing(next.row, current, frame.height, size.rows),
      // The selection column and the key columns are pinned: in view wherever the grid is scrolled.
      left: (current) =>
        next.col > 0 ? scrollLeftShowing(columns, keys, next.col - 1, current, frame.width) : current,
    });
  };

  /** Edits a scalar cell in place; any other value (a key, a map, a set) opens the item editor. */
  const startEdit = (item: Item, position: number, at: GridPoint): void => {
    const column = columns[at.col - 1];
    const rowKey = rowKeyText(item, keys);
    const staged = props.staged?.get(rowKey);
    const value = column === undefined || staged === null ? undefined : ownValue(staged ?? item, column);
    const kind =
      column !== undefined && props.canEdit && props.onEditCell ? inlineKind(column, value, keys) : undefined;
    if (!kind || !value) props.onOpen(item, position);
    else setEditing({ row: at.row, col: at.col, rowKey, kind, text: editText(value) });
  };

  const commitEdit = (): void => {
    if (!editing) return;
    const entry = cache.entry(editing.row);
    const column = columns[editing.col - 1];
    if (entry?.type !== 'item' || column === undefined || rowKeyText(entry.item, keys) !== editing.rowKey) {
      setEditing({ ...editing, problem: 'This row is not loaded any more. Press Escape and edit it again.' });
      return;
    }
    const parsed = parseInline(editing.kind, editing.text);
    if ('problem' in parsed) {
      setEditing({ ...editing, problem: parsed.problem });
      return;
    }
    const staged = props.staged?.get(editing.rowKey);
    const base = staged ?? entry.item;
    const current = ownValue(base, column);
    // Enter on an unchanged value stages nothing: an empty change would only clutter the list.
    if (!current || !valuesEqual(current, parsed.value)) props.onEditCell?.(base, column, parsed.value);
    setEditing(undefined);
    wantsFocus.current = true;
  };

  const cancelEdit = (): void => {
    setEditing(undefined);
    wantsFocus.current = true;
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.altKey) return;
    const isAction = event.key === 'Enter' || event.key === 'F2';
    const isSpace = event.key === ' ';
    const column = point.col > 0 ? columns[point.col - 1] : undefined;
    const entry = point.row >= 0 ? cache.entry(point.row) : undefined;
    if (point.row < 0) {
      if ((isAction || isSpace) && column !== undefined && column !== ENTITY_COLUMN) {
        event.preventDefault();
        props.onSort(column);
        return;
      }
    } else if (entry?.type === 'header') {
      const { header } = entry;
      const wants =
        isAction ||
        (event.key === 'ArrowRight' && header.isCollapsed) ||
        (event.key === 'ArrowLeft' && !header.isCollapsed);
      if (isSpace) {
        event.preventDefault();
        props.onSelectCollection?.(header, !isCollectionSelected(props.selected, header));
        return;
      }
      if (wants) {
        event.preventDefault();
        props.onToggleCollection?.(header);
        return;
      }
    } else if (entry?.type === 'item') {
      if (isSpace) {
        event.preventDefault();
        props.onToggleRow(entry.item, entry.position, event.shiftKey);
        return;
      }
      if (isAction) {
        event.preventDefault();
        if (point.col === 0) props.onOpen(entry.item, entry.position);
        else startEdit(entry.item, entry.position, point);
        return;
      }
    }
    const next = nextPoint(point, event, size);
    if (!next) return;
    event.preventDefault();
    moveTo(next);
  };

  const onFocus = (event: FocusEvent): void => {
    hasFocus.current = true;
    if (event.target === focusing.current) return;
    // A click (or a screen reader) put focus on a cell: it becomes the focused cell.
    const at = pointOf(event.target);
    if (at && (at.row !== point.row || (at.col !== point.col && !event.target.closest('[aria-colspan]'))))
      setActive(at);
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

  // A double-click does what Enter does on that cell: a scalar is edited in place, and the
  // selection column, a key or a nested value opens the item editor.
  const onDoubleClick = (event: MouseEvent): void => {
    if (!(event.target instanceof Element) || event.target.closest('.cell-editor')) return;
    const at = pointOf(event.target);
    const entry = at && at.row >= 0 ? cache.entry(at.row) : undefined;
    if (!at || entry?.type !== 'item') return;
    if (at.col === 0) props.onOpen(entry.item, entry.position);
    else {
      setActive(at);
      startEdit(entry.item, entry.position, at);
    }
  };

  return { onKeyDown, onFocus, onBlur, onDoubleClick, commitEdit, cancelEdit };
}
