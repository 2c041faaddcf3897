import type { AttributeValue } from '../../shared/dynamo/attribute-value';
import { base64ByteLength, formatBytes } from '../../shared/dynamo/item-size';

/*
 * A result cell's value as text, for the result grids (items and SQL): as a screen reader says it
 * and as Ctrl+C copies it. Numbers stay the decimal text DynamoDB or the SQL engine gave.
 */

const MAX_SPOKEN = 200;

function clip(text: string): string {
  return text.length > MAX_SPOKEN ? `${text.slice(0, MAX_SPOKEN)}…` : text;
}

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

/**
 * A value as plain JSON-able data: numbers become JS numbers only when that loses nothing (else
 * their text), sets become arrays, binary its base64. Map keys are data: `__proto__` stays a key.
 */
export function plainValue(v: AttributeValue): unknown {
  if ('S' in v) return v.S;
  if ('N' in v) return Number(v.N).toString() === v.N ? Number(v.N) : v.N;
  if ('BOOL' in v) return v.BOOL;
  if ('NULL' in v) return null;
  if ('L' in v) return v.L.map(plainValue);
  if ('M' in v) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, x] of Object.entries(v.M)) out[k] = plainValue(x);
    return out;
  }
  if ('SS' in v) return v.SS;
  if ('NS' in v) return v.NS;
  if ('B' in v) return v.B;
  return v.BS;
}

/**
 * A value as Ctrl+C copies it from a grid cell: a string as itself, a number as its exact text,
 * a missing value as nothing, anything nested as its plain JSON (`indent` for the full view).
 */
export function valueText(value: AttributeValue | null | undefined, indent?: number): string {
  if (value === null || value === undefined) return '';
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'NULL';
  if ('B' in value) return value.B;
  return JSON.stringify(plainValue(value), null, indent);
}
