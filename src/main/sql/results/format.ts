import { isNum, numToString } from '../values/decimal';
import { Bytes, DMap, DSet, type Value } from '../values/value';

/**
 * JSON with numbers written as their exact decimal text (a valid JSON number), so a 38-digit
 * value survives `dynotable sql --format json | jq` — JSON.stringify would go through a double.
 * Sets and lists are arrays, maps objects, binary base64 text, missing and NULL null.
 */
export function jsonValue(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isNum(v)) return numToString(v);
  if (v instanceof Bytes) return JSON.stringify(v.base64);
  if (Array.isArray(v)) return `[${v.map(jsonValue).join(',')}]`;
  if (v instanceof DSet) return `[${v.items.map((x) => jsonValue(x)).join(',')}]`;
  if (v instanceof DMap)
    return `{${Object.keys(v.entries)
      .map((k) => `${JSON.stringify(k)}:${jsonValue(v.entries[k])}`)
      .join(',')}}`;
  return 'null';
}

export function jsonRow(columns: readonly string[], row: readonly Value[]): string {
  return `{${columns.map((c, j) => `${JSON.stringify(c)}:${jsonValue(row[j])}`).join(',')}}`;
}

/** A cell as plain text: strings as they are, numbers exact, nested values as JSON. */
export function textValue(v: Value): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (isNum(v)) return numToString(v);
  if (v instanceof Bytes) return v.base64;
  return jsonValue(v);
}

/** A cell for CSV: SQL NULL and a missing attribute are an empty unquoted cell, '' is "". */
export function csvValue(v: Value): string | undefined {
  return v === null || v === undefined ? undefined : textValue(v);
}
