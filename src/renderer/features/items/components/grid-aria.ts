import { ENTITY_COLUMN } from './grid-layout';

/** A column's name as the grid says it (the computed entity column has no attribute name). */
export function columnLabel(column: string): string {
  return column === ENTITY_COLUMN ? 'type (key prefix)' : column;
}

/** The focused cell's name: its column, then its value ("total: 75"). */
export function cellLabel(column: string, value: string): string {
  return `${columnLabel(column)}: ${value}`;
}
