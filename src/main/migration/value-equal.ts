import type { AttributeValue } from '../../shared/dynamo/attribute-value';

type Loose = Record<string, unknown>;

/**
 * Whether two stored values are the same as DynamoDB sees them: sets without order, maps
 * without key order. Works on the tagged form and on the SDK's (binary as Uint8Array).
 */
export function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  const x = a as unknown as Loose;
  const y = b as unknown as Loose;
  if (x.S !== undefined) return x.S === y.S;
  if (x.N !== undefined) return typeof y.N === 'string' && sameNumber(x.N as string, y.N);
  if (x.BOOL !== undefined) return x.BOOL === y.BOOL;
  if (x.NULL !== undefined) return y.NULL !== undefined;
  if (x.B !== undefined) return y.B !== undefined && bytes(x.B) === bytes(y.B);
  if (x.L !== undefined) {
    const l = x.L as AttributeValue[];
    const r = y.L as AttributeValue[] | undefined;
    return (
      r !== undefined && l.length === r.length && l.every((v, i) => sameValue(v, r[i] as AttributeValue))
    );
  }
  if (x.M !== undefined) {
    const l = x.M as Record<string, AttributeValue>;
    const r = y.M as Record<string, AttributeValue> | undefined;
    if (r === undefined) return false;
    const names = Object.keys(l);
    if (names.length !== Object.keys(r).length) return false;
    return names.every((n) => r[n] !== undefined && sameValue(l[n] as AttributeValue, r[n]));
  }
  if (x.SS !== undefined) return sameSet(x.SS as string[], y.SS as string[] | undefined);
  if (x.NS !== undefined)
    return sameSet(
      (x.NS as string[]).map(canonicalNumber),
      (y.NS as string[] | undefined)?.map(canonicalNumber),
    );
  if (x.BS !== undefined)
    return sameSet((x.BS as unknown[]).map(bytes), (y.BS as unknown[] | undefined)?.map(bytes));
  return false;
}

function sameSet(a: string[], b: string[] | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  const seen = new Set(a);
  return b.every((v) => seen.has(v));
}

function sameNumber(a: string, b: string): boolean {
  return a === b || canonicalNumber(a) === canonicalNumber(b);
}

/** DynamoDB returns numbers normalised, but hand-made tagged values may say 1.50 for 1.5. */
function canonicalNumber(n: string): string {
  const m = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?(?:[eE]([+-]?\d+))?$/.exec(n);
  if (!m || m[4] !== undefined) return String(Number(n));
  const int = m[2] || '0';
  const frac = m[3] ?? '';
  const sign = int === '0' && frac === '' ? '' : m[1];
  return frac ? `${sign}${int}.${frac}` : `${sign}${int}`;
}

function bytes(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  return '';
}
