import type { AttributeValue } from './attribute-value';
import { compareNumbers } from './number';

const TYPE_ORDER = ['N', 'S', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];

function rank(value: AttributeValue): number {
  return TYPE_ORDER.indexOf(Object.keys(value)[0] ?? '');
}

/**
 * Sort order for the grid: numbers exactly by value (no JS number, so 38 digits sort right),
 * strings by code point as DynamoDB orders them, other types grouped after, missing last.
 */
export function compareValues(a: AttributeValue | undefined, b: AttributeValue | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if ('N' in a && 'N' in b) return compareNumbers(a.N, b.N);
  if ('S' in a && 'S' in b) return a.S < b.S ? -1 : a.S > b.S ? 1 : 0;
  if ('B' in a && 'B' in b) return a.B < b.B ? -1 : a.B > b.B ? 1 : 0;
  if ('BOOL' in a && 'BOOL' in b) return Number(a.BOOL) - Number(b.BOOL);
  const byType = rank(a) - rank(b);
  if (byType !== 0) return byType;
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The text a quick filter searches: scalars as shown, containers by their members. */
export function searchText(value: AttributeValue): string {
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'null';
  if ('SS' in value) return value.SS.join(' ');
  if ('NS' in value) return value.NS.join(' ');
  if ('BS' in value) return value.BS.join(' ');
  if ('L' in value) return value.L.map(searchText).join(' ');
  return Object.entries(value.M)
    .map(([k, v]) => `${k} ${searchText(v)}`)
    .join(' ');
}
