import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalNumber } from '../../../src/shared/dynamo/number';
import { trinoAverages } from './duck-athena';
import { toText } from '../../../src/main/sql/executor/functions';
import { isNum } from '../../../src/main/sql/values/decimal';
import type { Value } from '../../../src/main/sql/values/value';

/**
 * Rows of both engines as exact text, to compare digit for digit: a number in one spelling per
 * value (1.50 and 1.5 are one number, as DynamoDB counts them), everything else as its text.
 * No rounding to a dozen digits: a DECIMAL that rounds a 38-digit number is a wrong answer.
 */
export type ExactRow = (string | null)[];

const NUMERIC = /^(DECIMAL|BIGINT|INTEGER|HUGEINT|SMALLINT|TINYINT|DOUBLE|FLOAT|UBIGINT)/;

export async function athenaExactRows(
  duck: DuckDBConnection,
  sql: string,
): Promise<{ columns: string[]; rows: ExactRow[] }> {
  const reader = await duck.runAndReadAll(trinoAverages(sql));
  const numeric = reader.columnNames().map((_, i) => NUMERIC.test(reader.columnType(i).toString()));
  const rows = reader.getRowsJson().map((row) =>
    row.map((v, i) => {
      if (v === null) return null;
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      return numeric[i] ? canonicalNumber(text) : text;
    }),
  );
  return { columns: reader.columnNames(), rows };
}

export function localExactRows(rows: Value[][]): ExactRow[] {
  return rows.map((row) => row.map((v) => (isNum(v) ? canonicalNumber(toText(v)!) : toText(v))));
}

export function sortedRows(rows: ExactRow[]): ExactRow[] {
  return [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
