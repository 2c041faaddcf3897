import type { KeySchema } from '../../../../shared/ipc/tables';

/** The entity-type column is computed, not an attribute; no attribute name starts with NUL. */
export const ENTITY_COLUMN = '\u0000entity';

export function columnWidth(column: string, keys: KeySchema): number {
  if (column === keys.partitionKey.name || column === keys.sortKey?.name) return 200;
  return column === ENTITY_COLUMN ? 110 : 170;
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
