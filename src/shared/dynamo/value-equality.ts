import type { AttributeValue, Item } from './attribute-value';
import { canonicalNumber } from './number';

/** Base64 without padding, so "AA==" and "AA" (the same byte) compare equal. */
export function canonicalBase64(text: string): string {
  return text.replace(/=+$/, '');
}

function sameMembers(a: string[], b: string[], canon: (s: string) => string): boolean {
  if (a.length !== b.length) return false;
  const left = new Set(a.map(canon));
  if (left.size !== a.length) return false;
  return b.every((member) => left.has(canon(member)));
}

/**
 * Equality the way DynamoDB's `=` sees it: sets ignore order, numbers compare by value
 * (1.50 = 1.5), maps ignore key order. Used for diffs and for "did anything change".
 */
export function valuesEqual(a: AttributeValue, b: AttributeValue): boolean {
  if ('S' in a) return 'S' in b && a.S === b.S;
  if ('N' in a) return 'N' in b && canonicalNumber(a.N) === canonicalNumber(b.N);
  if ('B' in a) return 'B' in b && canonicalBase64(a.B) === canonicalBase64(b.B);
  if ('BOOL' in a) return 'BOOL' in b && a.BOOL === b.BOOL;
  if ('NULL' in a) return 'NULL' in b;
  if ('SS' in a) return 'SS' in b && sameMembers(a.SS, b.SS, (s) => s);
  if ('NS' in a) return 'NS' in b && sameMembers(a.NS, b.NS, canonicalNumber);
  if ('BS' in a) return 'BS' in b && sameMembers(a.BS, b.BS, canonicalBase64);
  if ('L' in a)
    return (
      'L' in b &&
      a.L.length === b.L.length &&
      a.L.every((v, i) => {
        const w = b.L[i];
        return w !== undefined && valuesEqual(v, w);
      })
    );
  return 'M' in b && itemsEqual(a.M, b.M);
}

export function itemsEqual(a: Item, b: Item): boolean {
  const entries = Object.entries(a);
  if (entries.length !== Object.keys(b).length) return false;
  return entries.every(([name, value]) => {
    const other = Object.prototype.hasOwnProperty.call(b, name) ? b[name] : undefined;
    return other !== undefined && valuesEqual(value, other);
  });
}
