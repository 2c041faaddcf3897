import type { KeyboardEvent, MouseEvent, RefObject } from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../../shared/dynamo/value-equality';
import type { RowCache } from '../row-cache';
import type { GridPoint, GridSize } from '../../../ui/grid-keys';
import { pointOf, useGridKeyboard } from '../../../ui/use-grid-keyboard';
import { ENTITY_COLUMN, scrollLeftShowing } from './grid-layout';
import type { useScrollFrame } from '../../../ui/virtual-rows';
import { valueText } from '../../../ui/cell-text';
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

/**
 * The item grid's keys on the result grids' one keyboard model (ui/use-grid-keyboard): Space
 * selects, Enter/F2 or a double-click edits a scalar cell in place or opens the item, Enter or
 * Space on a column header sorts, ← → on a collection header collapse and expand it.
 */
export function useGridFocus(input: GridFocusInput) {
  const { scroller, cache, props, columns, size, point, tab, editing, frame, setActive, setEditing } = input;
  const { keys } = props;

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
    keyboard.refocus();
  };

  const cancelEdit = (): void => {
    setEditing(undefined);
    keyboard.refocus();
  };

  /** The item grid's own keys, before the moves: true when one was taken. */
  const onKey = (event: KeyboardEvent): boolean => {
    const isAction = event.key === 'Enter' || event.key === 'F2';
    const isSpace = event.key === ' ';
    const column = point.col > 0 ? columns[point.col - 1] : undefined;
    const entry = point.row >= 0 ? cache.entry(point.row) : undefined;
    if (point.row < 0) {
      if ((isAction || isSpace) && column !== undefined && column !== ENTITY_COLUMN) {
        event.preventDefault();
        props.onSort(column);
        return true;
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
        return true;
      }
      if (wants) {
        event.preventDefault();
        props.onToggleCollection?.(header);
        return true;
      }
    } else if (entry?.type === 'item') {
      if (isSpace) {
        event.preventDefault();
        props.onToggleRow(entry.item, entry.position, event.shiftKey);
        return true;
      }
      if (isAction) {
        event.preventDefault();
        if (point.col === 0) props.onOpen(entry.item, entry.position);
        else startEdit(entry.item, entry.position, point);
        return true;
      }
    }
    return false;
  };

  const keyboard = useGridKeyboard({
    scroller,
    size,
    point,
    tab,
    isEditingTab: editing !== undefined && editing.row === tab.row && editing.col === tab.col,
    frame,
    scrollLeftShowing: (col, current) => scrollLeftShowing(columns, keys, col - 1, current, frame.width),
    setActive,
    copy: {
      rowAt: (row) => cache.entry(row),
      readRows: (first, last) => cache.readRange(first, last),
      cellText: (entry, col, isRange) => {
        const column = columns[col - 1];
        // A collection's header row spans the columns: its partition key, once.
        if (entry.type === 'header') return isRange && col > 1 ? '' : valueText(entry.header.partitionKey);
        // The selection column stands for the row: the item, as DynamoDB JSON.
        if (column === undefined) return JSON.stringify(entry.item);
        if (column === ENTITY_COLUMN) return entityOf(entry.item, keys) ?? '';
        const staged = props.staged?.get(rowKeyText(entry.item, keys));
        return valueText(staged === null ? undefined : ownValue(staged ?? entry.item, column));
      },
      columnName: (col) => columns[col - 1] ?? '',
    },
    onKey,
  });

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

  // The keyboard model's handlers, range and live-region sentence, and the item grid's own.
  return { ...keyboard, onDoubleClick, commitEdit, cancelEdit };
}
