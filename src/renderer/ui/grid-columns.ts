/*
 * The one horizontal virtualization of DynoTable's result grids (the item grid and the SQL
 * results grid): a row renders its lead column (the item grid's selection column, the SQL grid's
 * row number) and its pinned columns whatever the scroll, then only the columns that intersect
 * the visible width plus a margin, after a gap as wide as the columns left out. A SELECT * over a
 * wide single-table design has hundreds of columns; a row of them all is tens of thousands of
 * pixels laid out and painted for every row that scrolls into view.
 */

/** Columns kept in the DOM on each side beyond the visible ones, so a short sideways scroll shows cells already laid out. */
export const COLUMN_OVERSCAN_PX = 400;

export interface ColumnLayout {
  /** The lead column's width (grid column 0): always rendered, sticky at the left. */
  lead: number;
  /** The data columns' widths (grid columns 1…). */
  widths: readonly number[];
  /** How many leading data columns stay pinned beside the lead column. */
  pinned: number;
  /** lefts[i]: where data column i starts from the row's left edge; lefts[n] is the row's width. */
  lefts: readonly number[];
}

export function columnLayout(lead: number, widths: readonly number[], pinned = 0): ColumnLayout {
  const lefts = [lead];
  for (const width of widths) lefts.push((lefts[lefts.length - 1] ?? lead) + width);
  return { lead, widths, pinned: Math.min(pinned, widths.length), lefts };
}

export function rowWidthOf(layout: ColumnLayout): number {
  return layout.lefts[layout.widths.length] ?? layout.lead;
}

/** Where data column `index` starts, from the row's left edge (after the lead column). */
export function columnLeftOf(layout: ColumnLayout, index: number): number {
  return layout.lefts[Math.max(0, Math.min(index, layout.widths.length))] ?? layout.lead;
}

/** The data columns a row renders: pinned ones, then [from, to) after a gap of `leftPad` px. */
export interface ShownColumns {
  pinned: number;
  from: number;
  to: number;
  leftPad: number;
}

/** The columns to render at a horizontal scroll position (see the top of this file). */
export function shownColumns(layout: ColumnLayout, scrollLeft: number, width: number): ShownColumns {
  const { widths, pinned, lefts } = layout;
  const count = widths.length;
  const start = scrollLeft - COLUMN_OVERSCAN_PX;
  const end = scrollLeft + width + COLUMN_OVERSCAN_PX;
  const pinnedRight = columnLeftOf(layout, pinned);
  // Positions of unpinned columns, as laid out after the pinned ones: the first whose right edge
  // passes `start`, then the first that starts at or after `end`.
  let from = pinned;
  while (from < count && (lefts[from + 1] ?? 0) <= start) from++;
  let to = from;
  while (to < count && (lefts[to] ?? 0) < end) to++;
  if (from === count) return { pinned, from: count, to: count, leftPad: 0 };
  return { pinned, from, to, leftPad: (lefts[from] ?? pinnedRight) - pinnedRight };
}

/** Whether grid column `col` (0 the lead column) is in a row's DOM. */
export function isColumnShown(shown: ShownColumns, col: number): boolean {
  return col <= shown.pinned || (col > shown.from && col <= shown.to);
}

/**
 * The scrollLeft that shows data column `index` whole beside the lead and pinned columns, or the
 * same one if it does. The lead and pinned columns are always in view.
 */
export function scrollLeftToShow(
  layout: ColumnLayout,
  index: number,
  scrollLeft: number,
  width: number,
): number {
  if (index < 0) return 0;
  if (index < layout.pinned) return scrollLeft;
  const pinnedRight = columnLeftOf(layout, layout.pinned);
  const left = columnLeftOf(layout, index);
  const right = columnLeftOf(layout, index + 1);
  // The lead and pinned columns cover [0, pinnedRight) of the viewport once it scrolls sideways.
  if (left - pinnedRight < scrollLeft) return left - pinnedRight;
  if (right > scrollLeft + width) return right - width;
  return scrollLeft;
}
