import type { KeySchema } from '../../../../shared/ipc/tables';
import {
  columnLayout,
  columnLeftOf,
  scrollLeftToShow,
  shownColumns,
  type ColumnLayout,
  type ShownColumns,
} from '../../../ui/grid-columns';

/** The entity-type column is computed, not an attribute; no attribute name starts with NUL. */
export const ENTITY_COLUMN = '\u0000entity';

export function columnWidth(column: string, keys: KeySchema): number {
  if (column === keys.partitionKey.name || column === keys.sortKey?.name) return 200;
  // Wide enough for its header, "type (key prefix)", which read "type (key pr…" at 110.
  return column === ENTITY_COLUMN ? 136 : 170;
}

/** Width of the row's checkbox column, before the attribute columns. */
export const CHECK_WIDTH = 36;

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

/** The item grid's columns on the one horizontal layout (ui/grid-columns): the selection column leads, the keys are pinned. */
export function itemColumnLayout(columns: string[], keys: KeySchema): ColumnLayout {
  return columnLayout(
    CHECK_WIDTH,
    columns.map((c) => columnWidth(c, keys)),
    pinnedCount(columns, keys),
  );
}

/** Where column `index` of `columns` starts, from the row's left edge (after the selection column). */
export function columnLeft(columns: string[], keys: KeySchema, index: number): number {
  return columnLeftOf(itemColumnLayout(columns, keys), index);
}

/** The scrollLeft that shows column `index` whole beside the pinned columns (see scrollLeftToShow). */
export function scrollLeftShowing(
  columns: string[],
  keys: KeySchema,
  index: number,
  scrollLeft: number,
  width: number,
): number {
  return scrollLeftToShow(itemColumnLayout(columns, keys), index, scrollLeft, width);
}

/** The columns a row renders at a scroll position (see ui/grid-columns). */
export function visibleColumns(
  columns: string[],
  keys: KeySchema,
  scrollLeft: number,
  width: number,
): ShownColumns {
  return shownColumns(itemColumnLayout(columns, keys), scrollLeft, width);
}
