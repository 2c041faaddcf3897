import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import { base64ByteLength, formatBytes } from '../../../../shared/dynamo/item-size';
import { ENTITY_COLUMN } from './grid-layout';

/**
 * The ARIA grid's numbering, for a virtualized grid: counts are of the whole result set, not of
 * the rendered rows. The column headers are row 1, so the item at position i is row i + 2; the
 * selection column is column 1, so the attribute at index k of the columns is column k + 2.
 */
export const HEADER_ROWS = 1;

export function gridRowCount(total: number): number {
  return total + HEADER_ROWS;
}

/** aria-rowindex of the grid entry at `index` (0-based); -1 is the header row. */
export function rowIndexOf(index: number): number {
  return index + HEADER_ROWS + 1;
}

export function gridColCount(columns: number): number {
  return columns + 1;
}

/** aria-colindex of grid column `col`: 0 is the selection column, k the attribute column k - 1. */
export function colIndexOf(col: number): number {
  return col + 1;
}

export function columnLabel(column: string): string {
  return column === ENTITY_COLUMN ? 'type (key prefix)' : column;
}

const MAX_SPOKEN = 200;

/** A value as a screen reader should say it: what the cell shows, with its type where it matters. */
export function spokenValue(value: AttributeValue | undefined): string {
  if (value === undefined) return 'missing';
  if ('S' in value) return value.S === '' ? 'empty string' : clip(value.S);
  if ('N' in value) return value.N;
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'null';
  if ('B' in value) return `binary, ${formatBytes(base64ByteLength(value.B))}`;
  if ('SS' in value) return `string set of ${value.SS.length}: ${clip(value.SS.join(', '))}`;
  if ('NS' in value) return `number set of ${value.NS.length}: ${clip(value.NS.join(', '))}`;
  if ('BS' in value) return `binary set of ${value.BS.length}`;
  if ('L' in value) return `list of ${value.L.length}`;
  return `map of ${Object.keys(value.M).length}`;
}

function clip(text: string): string {
  return text.length > MAX_SPOKEN ? `${text.slice(0, MAX_SPOKEN)}…` : text;
}

/** The focused cell's name: its column, then its value ("total: 75"). */
export function cellLabel(column: string, value: string): string {
  return `${columnLabel(column)}: ${value}`;
}
