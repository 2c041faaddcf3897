import type { AttributeValue, Item } from './attribute-value';
import { significantDigits } from './number';

/** DynamoDB's item limit, names included. */
export const MAX_ITEM_BYTES = 400 * 1024;

const encoder = new TextEncoder();

export function utf8Length(text: string): number {
  // Fast path: ASCII strings are one byte per character.
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).length;
}

export function base64ByteLength(text: string): number {
  const stripped = text.replace(/=+$/, '');
  return Math.floor((stripped.length * 3) / 4);
}

/** A number costs one byte per two significant digits plus one (and one for the sign). */
function numberSize(text: string): number {
  return Math.ceil(significantDigits(text) / 2) + 1 + (text.trimStart().startsWith('-') ? 1 : 0);
}

/**
 * Size of a value by DynamoDB's published rules: strings and binary by their bytes, numbers by
 * significant digits, BOOL/NULL one byte, lists and maps three bytes plus one per element.
 * Rounding up where the rules say "approximately" keeps the 400 KB check on the safe side.
 */
export function valueSize(value: AttributeValue): number {
  if ('S' in value) return utf8Length(value.S);
  if ('N' in value) return numberSize(value.N);
  if ('B' in value) return base64ByteLength(value.B);
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('SS' in value) return value.SS.reduce((sum, s) => sum + utf8Length(s), 0);
  if ('NS' in value) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if ('BS' in value) return value.BS.reduce((sum, b) => sum + base64ByteLength(b), 0);
  if ('L' in value) return value.L.reduce((sum, v) => sum + 1 + valueSize(v), 3);
  let size = 3;
  for (const [name, v] of Object.entries(value.M)) size += 1 + utf8Length(name) + valueSize(v);
  return size;
}

export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8Length(name) + valueSize(value);
  return size;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
