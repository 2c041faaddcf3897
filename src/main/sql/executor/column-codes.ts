import { hashKey, type HashKey } from '../values/compare';
import { isNull, type Value } from '../values/value';
import type { ColumnarTable } from './table';

/**
 * One code per table row for equal values of a column (hashKey equality, the equality of GROUP
 * BY and PARTITION BY: the number 7 and the string "7" apart), 0 for NULL and missing. A
 * window's partitions and a correlated subquery's outer values are array lookups by these codes
 * instead of a hash lookup of a (boxed, decoded) value per row.
 *
 * A column with a dictionary (column-views.ts) gives its codes as they are. Any other column
 * (numbers, more distinct strings than a dictionary keeps, strings that were compressed because
 * they repeat little) is coded by one hash pass, kept while its decoded copy lives: keyed by the
 * decoded array, which ColumnarTable replaces when it decodes again or seals new rows, and
 * checked against the row count, so kept codes are never read for rows they were not built
 * from (the same rule as join-keys.ts's numbering).
 */
export interface ColumnCodes {
  codes: Int32Array;
  /** Codes in use, 0 (NULL and missing) included. */
  size: number;
  /** Every coded value is a string: equal codes are identical values, not merely equal ones. */
  onlyStrings: boolean;
}

interface Kept extends ColumnCodes {
  rows: number;
}

const kept = new WeakMap<readonly Value[], Kept>();

/**
 * Undefined when the column has no such codes yet and `rowsInFlight` (the rows the caller will
 * look up) are under a quarter of the table: hashing every row of a million to group ten is
 * the wrong trade, so the caller takes its general path.
 */
export function columnCodes(
  table: ColumnarTable,
  attr: string,
  rowsInFlight: number,
): ColumnCodes | undefined {
  const dictionary = table.dictionary(attr);
  if (dictionary) return { codes: dictionary.codes, size: dictionary.size, onlyStrings: true };
  const values = table.column(attr);
  if (!values) return undefined;
  const rows = table.rowCount;
  const found = kept.get(values);
  if (found?.rows === rows) return found;
  if (rowsInFlight * 4 < rows) return undefined;
  const made = { ...hashCodes(rows, (i) => values[i]), rows };
  kept.set(values, made);
  return made;
}

/** Codes of `count` values by hashKey (0: NULL or missing): a table's rows, or a frame's. */
export function hashCodes(count: number, valueAt: (i: number) => Value): ColumnCodes {
  const codes = new Int32Array(count);
  // Strings are their own Map keys (hashKey builds text only for a string starting with NUL).
  const ids = new Map<HashKey, number>();
  let onlyStrings = true;
  for (let i = 0; i < count; i++) {
    const v = valueAt(i);
    if (isNull(v)) continue;
    if (typeof v !== 'string') onlyStrings = false;
    const key = hashKey(v);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size + 1));
    codes[i] = id;
  }
  return { codes, size: ids.size + 1, onlyStrings };
}
