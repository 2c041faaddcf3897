import type { GridPoint, GridSize } from './grid-keys';

/*
 * A rectangle of cells in a result grid (the item grid and the SQL results grid), as spreadsheet
 * users select one: Shift with the moving keys or Shift+click extends it from where it started
 * (the anchor) to the focused cell, and Ctrl+C copies it as tab-separated text. Rows are the whole
 * result's, so a range may cover rows not loaded yet; the copy reads them first.
 */

/** A range's rows [top, bottom] and data columns [left, right] (1-based, as GridPoint.col). */
export interface RangeBounds {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** More cells than this are not copied: the clipboard would hold tens of megabytes, and an export does it better. */
export const MAX_COPY_CELLS = 100_000;

/**
 * The cells between the anchor and the focused cell, or undefined when that is no range (one
 * cell, or only the header row). A range that reaches the lead column (the item grid's selection,
 * the SQL grid's row numbers) takes whole rows, as a spreadsheet's row headers do.
 */
export function rangeBounds(anchor: GridPoint, focus: GridPoint, size: GridSize): RangeBounds | undefined {
  if (size.cols === 0 || size.rows === 0) return undefined;
  const top = Math.max(0, Math.min(anchor.row, focus.row));
  const bottom = Math.min(size.rows - 1, Math.max(anchor.row, focus.row));
  if (bottom < top) return undefined;
  const isWholeRows = Math.min(anchor.col, focus.col) <= 0;
  const left = isWholeRows ? 1 : Math.min(anchor.col, focus.col);
  const right = isWholeRows ? size.cols : Math.min(size.cols, Math.max(anchor.col, focus.col));
  if (!isWholeRows && top === bottom && left === right) return undefined;
  return { top, bottom, left, right };
}

/** The range that a single cell stands for when it is copied as a range (with its header): a lead cell is its whole row. */
export function cellBounds(point: GridPoint, size: GridSize): RangeBounds {
  return point.col <= 0
    ? { top: point.row, bottom: point.row, left: 1, right: size.cols }
    : { top: point.row, bottom: point.row, left: point.col, right: point.col };
}

export function isInRange(bounds: RangeBounds | undefined, row: number, col: number): boolean {
  return (
    bounds !== undefined &&
    row >= bounds.top &&
    row <= bounds.bottom &&
    col >= bounds.left &&
    col <= bounds.right
  );
}

export function rowCountOf(bounds: RangeBounds): number {
  return bounds.bottom - bounds.top + 1;
}

export function colCountOf(bounds: RangeBounds): number {
  return bounds.right - bounds.left + 1;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** "12 rows × 3 columns": what a range holds, for the live region and the copy's sentences. */
export function rangeSize(bounds: RangeBounds): string {
  return `${plural(rowCountOf(bounds), 'row')} × ${plural(colCountOf(bounds), 'column')}`;
}

/** Why a range is not copied, or undefined when it may be. */
export function copyProblem(bounds: RangeBounds): string | undefined {
  const cells = rowCountOf(bounds) * colCountOf(bounds);
  if (cells <= MAX_COPY_CELLS) return undefined;
  return `Nothing copied: ${rangeSize(bounds)} is ${cells.toLocaleString('en-US')} cells, and a copy holds at most ${MAX_COPY_CELLS.toLocaleString('en-US')}. Select fewer, or export the rows.`;
}

/**
 * One field of tab-separated text as spreadsheets (Excel, Google Sheets, LibreOffice) paste it:
 * a value with a tab, a line break or a double quote is put in double quotes, its quotes doubled.
 */
export function tsvField(text: string): string {
  return /[\t\n\r"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of fields as tab-separated text, one line each (CRLF-free: spreadsheets take \n). */
export function tsvText(rows: readonly (readonly string[])[]): string {
  return rows.map((fields) => fields.map(tsvField).join('\t')).join('\n');
}
