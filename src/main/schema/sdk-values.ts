import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { ValueType } from './path-stats';

// How the schema walker reads SDK-shaped values (binary as bytes, every member optional).

/** A key value's shape: its prefix up to `#` or `:`, a constant word, or just its type. */
export function keyShape(value: SdkValue | undefined): string {
  if (!value) return '(missing)';
  if (value.S !== undefined) {
    const s = value.S;
    const cut = /^[A-Za-z][A-Za-z0-9_-]{0,39}[#|:]/.exec(s);
    if (cut) return `${cut[0]}…`;
    return /^[A-Z][A-Z0-9_]{1,39}$/.test(s) ? s : '…';
  }
  if (value.N !== undefined) return '<number>';
  return '<binary>';
}

export function typeOf(value: SdkValue): ValueType {
  if (value.S !== undefined) return 'S';
  if (value.N !== undefined) return 'N';
  if (value.M !== undefined) return 'M';
  if (value.L !== undefined) return 'L';
  if (value.BOOL !== undefined) return 'BOOL';
  if (value.NULL !== undefined) return 'NULL';
  if (value.SS !== undefined) return 'SS';
  if (value.NS !== undefined) return 'NS';
  if (value.BS !== undefined) return 'BS';
  return 'B';
}

/** SDK items carry binary as bytes, tagged items as base64: both become base64. */
export function binaryText(b: unknown): string {
  if (typeof b === 'string') return b;
  const bytes = b as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
