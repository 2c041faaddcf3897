/**
 * The result grids' keyboard model (the ARIA grid pattern): one cell is focusable at a time, and
 * keys move that cell. `row` -1 is the header row; `col` 0 is the lead column (the item grid's
 * selection, the SQL grid's row number), `col` k the k-th data column. Rows are the whole
 * result's, not the rendered ones.
 */
export interface GridPoint {
  row: number;
  col: number;
}

export interface GridSize {
  rows: number;
  /** Data columns (the lead column comes on top). */
  cols: number;
  /** Whole rows in view: how far PageUp/PageDown move. */
  page: number;
}

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** Where a key moves the focused cell, or undefined when the key is not a move. */
export function nextPoint(point: GridPoint, press: KeyPress, size: GridSize): GridPoint | undefined {
  const lastRow = size.rows - 1;
  const withControl = press.ctrlKey || press.metaKey;
  const row = (to: number): GridPoint => ({ row: Math.max(-1, Math.min(lastRow, to)), col: point.col });
  const col = (to: number): GridPoint => ({ row: point.row, col: Math.max(0, Math.min(size.cols, to)) });
  switch (press.key) {
    case 'ArrowUp':
      return row(point.row - 1);
    case 'ArrowDown':
      return row(point.row + 1);
    case 'ArrowLeft':
      return col(point.col - 1);
    case 'ArrowRight':
      return col(point.col + 1);
    // PageUp stops at the first item row; the header is one ArrowUp away.
    case 'PageUp':
      return point.row < 0 ? point : row(Math.max(Math.min(0, lastRow), point.row - size.page));
    case 'PageDown':
      return row(point.row + size.page);
    case 'Home':
      return withControl ? { row: Math.min(0, lastRow), col: 0 } : col(0);
    case 'End':
      return withControl ? { row: lastRow, col: size.cols } : col(size.cols);
    default:
      return undefined;
  }
}

/** A point that still exists after the grid shrank (fewer rows after a collapse, fewer columns). */
export function clampPoint(point: GridPoint, size: GridSize): GridPoint {
  return {
    row: Math.max(-1, Math.min(size.rows - 1, point.row)),
    col: Math.max(0, Math.min(size.cols, point.col)),
  };
}

/** The column headers are row 1 of the ARIA grid, so the entry at index i is row i + 2 (-1: the header row). */
export function rowIndexOf(index: number): number {
  return index + 2;
}

/** aria-colindex of grid column `col`: 0 is the lead column, k the data column k - 1. */
export function colIndexOf(col: number): number {
  return col + 1;
}

/**
 * aria-rowcount and aria-colcount of a virtualized grid: every row of the result (the column
 * headers are row 1) and every column (the lead column is column 1), not those rendered.
 */
export function gridRowCount(total: number): number {
  return total + 1;
}

export function gridColCount(columns: number): number {
  return columns + 1;
}
