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
export function valueSize(root: AttributeValue): number {
  // Iterative: validation sizes an item before its depth is refused, and the item may be deep.
  let size = 0;
  const stack: AttributeValue[] = [root];
  for (let value = stack.pop(); value; value = stack.pop()) {
    if ('S' in value) size += utf8Length(value.S);
    else if ('N' in value) size += numberSize(value.N);
    else if ('B' in value) size += base64ByteLength(value.B);
    else if ('BOOL' in value || 'NULL' in value) size += 1;
    else if ('SS' in value) size += value.SS.reduce((sum, s) => sum + utf8Length(s), 0);
    else if ('NS' in value) size += value.NS.reduce((sum, n) => sum + numberSize(n), 0);
    else if ('BS' in value) size += value.BS.reduce((sum, b) => sum + base64ByteLength(b), 0);
    else if ('L' in value) {
      size += 3 + value.L.length;
      for (const member of value.L) stack.push(member);
    } else {
      size += 3;
      for (const name of Object.keys(value.M)) {
        const member = value.M[name];
        if (!member) continue;
        size += 1 + utf8Length(name);
        stack.push(member);
      }
    }
  }
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
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}
