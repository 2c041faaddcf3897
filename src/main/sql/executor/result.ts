import type { Item } from '../../../shared/dynamo/attribute-value';
import type { KeySchema } from '../../../shared/ipc/tables';
import type { Value } from '../values/value';
import type { Evaluator } from './compile';
import type { RowSource } from './row-source';
import { ColumnarTable, type GatheredColumn } from './table';

/** A query result: its column names and random access to rows, for windows and export. */
export interface ResultTable {
  readonly columns: string[];
  readonly length: number;
  row(i: number): Value[];
  /** All values of one column (subqueries, charts, derived tables). */
  column(j: number): Value[];
  /** Present when every row is one item of one table (see row-source.ts). */
  readonly source?: ResultSource;
  /** Column j as a plain column of a table at some rows, when it is one (late materialisation). */
  gathered?(j: number): GatheredColumn | undefined;
}

/** An output that reads a table's column as it is: its table, attribute and frame rows. */
export interface PlainOutput {
  from: ColumnarTable;
  attr: string;
  idx: Int32Array;
}

export interface ResultSource {
  table: string;
  keys: KeySchema;
  /** The primary key of result row i's item; undefined when the row has none. */
  keyOf(i: number): Item | undefined;
}

/** Unique names: a second "name" becomes "name_2", so JSON rows keep every column. */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}

/**
 * Rows computed on demand from the frame: a `SELECT *` over a million items holds row numbers
 * and the shared columns, not a million new row objects; a window evaluates only its rows.
 */
export class FrameResult implements ResultTable {
  readonly columns: string[];
  readonly source?: ResultSource;
  constructor(
    columns: string[],
    private readonly evaluators: Evaluator[],
    /** Frame rows in result order. */
    private readonly order: Int32Array,
    rowSource?: RowSource,
    private readonly plain: readonly (PlainOutput | undefined)[] = [],
  ) {
    this.columns = uniqueNames(columns);
    if (rowSource)
      this.source = {
        table: rowSource.table,
        keys: rowSource.keys,
        keyOf: (i) => rowSource.keyOf(this.order[i]!),
      };
  }
  get length(): number {
    return this.order.length;
  }
  row(i: number): Value[] {
    const r = this.order[i]!;
    return this.evaluators.map((ev) => ev(r));
  }
  gathered(j: number): GatheredColumn | undefined {
    const plain = this.plain[j];
    if (!plain) return undefined;
    const { order } = this;
    const rows = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) rows[i] = plain.idx[order[i]!]!;
    return { from: plain.from, attr: plain.attr, rows };
  }
  column(j: number): Value[] {
    const ev = this.evaluators[j]!;
    const { order } = this;
    const values = new Array<Value>(order.length);
    for (let i = 0; i < order.length; i++) values[i] = ev(order[i]!);
    return values;
  }
}

/**
 * The rows of a GROUP BY whose every output is an aggregated column as it is (a group key or an
 * aggregate, no expression over one): a row is read straight from those columns, its group
 * found once, instead of a compiled evaluator called per cell (reading the one-table JOIN +
 * GROUP BY's 5,000 rows that way was a fifth of the statement: docs/PERFORMANCE.md, sqljoin7).
 */
export class GroupResult implements ResultTable {
  readonly columns: string[];
  constructor(
    columns: string[],
    /** Per output, its aggregated column: row g is group g. */
    private readonly values: readonly (readonly Value[])[],
    /** Per frame row, its group. */
    private readonly groups: Int32Array,
    /** Frame rows in result order. */
    private readonly order: Int32Array,
  ) {
    this.columns = uniqueNames(columns);
  }
  get length(): number {
    return this.order.length;
  }
  row(i: number): Value[] {
    const g = this.groups[this.order[i]!]!;
    const { values } = this;
    // A key and one or two aggregates, the commonest widths, as array literals: 0.79× the time of
    // an array made to length and filled, for the bench's 5,000 rows (docs/PERFORMANCE.md, sqljoin8).
    if (values.length === 3) return [values[0]![g], values[1]![g], values[2]![g]];
    if (values.length === 2) return [values[0]![g], values[1]![g]];
    const out = new Array<Value>(values.length);
    for (let j = 0; j < values.length; j++) out[j] = values[j]![g];
    return out;
  }
  column(j: number): Value[] {
    const from = this.values[j]!;
    const { groups, order } = this;
    const out = new Array<Value>(order.length);
    for (let i = 0; i < order.length; i++) out[i] = from[groups[order[i]!]!];
    return out;
  }
}

/** Rows held as columns (UNION results, derived tables). */
export class ColumnResult implements ResultTable {
  readonly columns: string[];
  constructor(
    columns: string[],
    private readonly data: Value[][],
    readonly length: number,
  ) {
    this.columns = uniqueNames(columns);
  }
  row(i: number): Value[] {
    return this.data.map((column) => column[i]);
  }
  column(j: number): Value[] {
    return this.data[j]!.slice(0, this.length);
  }
}

export function toColumnarTable(result: ResultTable, name: string): ColumnarTable {
  return ColumnarTable.fromColumns(
    name,
    result.columns.map((column, j) => [column, result.gathered?.(j) ?? result.column(j)]),
    result.length,
  );
}
