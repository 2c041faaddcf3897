import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import { TYPE_INDEX } from './path-stats';

// How the schema walker reads SDK-shaped values (binary as bytes, every member optional).

const PREFIX_CUT = /^[A-Za-z][A-Za-z0-9_-]{0,39}[#|:]/;

/** A key value's shape: its prefix up to `#` or `:`, a constant word, or just its type. */
export function keyShape(value: SdkValue | undefined): string {
  if (!value) return '(missing)';
  if (value.S !== undefined) {
    const s = value.S;
    const cut = PREFIX_CUT.exec(s);
    if (cut) return `${cut[0]}…`;
    return /^[A-Z][A-Z0-9_]{1,39}$/.test(s) ? s : '…';
  }
  if (value.N !== undefined) return '<number>';
  return '<binary>';
}

/**
 * keyShape over a stream of key values, remembering the last prefix: keys mostly share it, and a
 * regex and a new string per item were a share of the analysis. A string that starts with the
 * last prefix has that prefix as its own (the prefix runs to its first `#`, `|` or `:`).
 */
export class KeyShapes {
  private cut = '';
  private shape = '';

  of(value: SdkValue | undefined): string {
    const s = value?.S;
    if (s !== undefined && this.cut !== '' && s.startsWith(this.cut)) return this.shape;
    const shape = keyShape(value);
    const cut = s === undefined ? null : PREFIX_CUT.exec(s);
    if (cut) {
      this.cut = cut[0];
      this.shape = shape;
    }
    return shape;
  }
}

/** A value's type as its TYPE_INDEX (index in VALUE_TYPES). */
export function typeIndexOf(value: SdkValue): number {
  if (value.S !== undefined) return TYPE_INDEX.S;
  if (value.N !== undefined) return TYPE_INDEX.N;
  if (value.M !== undefined) return TYPE_INDEX.M;
  if (value.L !== undefined) return TYPE_INDEX.L;
  if (value.BOOL !== undefined) return TYPE_INDEX.BOOL;
  if (value.NULL !== undefined) return TYPE_INDEX.NULL;
  if (value.SS !== undefined) return TYPE_INDEX.SS;
  if (value.NS !== undefined) return TYPE_INDEX.NS;
  if (value.BS !== undefined) return TYPE_INDEX.BS;
  return TYPE_INDEX.B;
}

/** SDK items carry binary as bytes, tagged items as base64: both become base64. */
export function binaryText(b: unknown): string {
  if (typeof b === 'string') return b;
  const bytes = b as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
