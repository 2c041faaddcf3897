import { csvRecords } from '../../main/csv/csv-text';
import type { ResultTable } from '../../main/sql/executor/result';
import { csvValue, jsonRow, textValue } from '../../main/sql/results/format';
import type { SqlService } from '../../main/sql/service';
import { fromTagged, type Value } from '../../main/sql/values/value';

export type SqlFormat = 'json' | 'csv' | 'table';

// The SQL service's largest window.
const WINDOW_ROWS = 1000;

/**
 * A result the SQL service holds, read whole in windows (tagged values; null is a missing value)
 * and dropped from the worker, as the rows to print.
 */
export async function resultOf(service: SqlService, resultId: string): Promise<ResultTable> {
  const rows: Value[][] = [];
  let columns: string[] = [];
  try {
    for (let offset = 0; ; offset += WINDOW_ROWS) {
      const window = await service.window(resultId, offset, WINDOW_ROWS);
      columns = window.columns;
      for (const row of window.rows) rows.push(row.map((v) => (v === null ? undefined : fromTagged(v))));
      if (offset + WINDOW_ROWS >= window.total) break;
    }
  } finally {
    await service.drop(resultId).catch(() => undefined);
  }
  return {
    columns,
    length: rows.length,
    row: (i) => rows[i]!,
    column: (j) => rows.map((row) => row[j]),
  };
}

const rowsOf = (result: ResultTable) => Array.from({ length: result.length }, (_, i) => result.row(i));

/** A result as the CLI prints it: a JSON array of row objects (exact numbers), CSV or aligned text. */
export function printResult(result: ResultTable, format: SqlFormat): string {
  const rows = rowsOf(result);
  if (format === 'json')
    return rows.length === 0
      ? '[]\n'
      : `[\n${rows.map((row) => `  ${jsonRow(result.columns, row)}`).join(',\n')}\n]\n`;
  if (format === 'csv') return csvRecords([result.columns, ...rows.map((row) => row.map(csvValue))]);
  const cells = rows.map((row) => row.map((v) => textValue(v).replace(/\s+/g, ' ')));
  const widths = result.columns.map((c, j) =>
    Math.min(60, Math.max(c.length, ...cells.slice(0, 1000).map((r) => r[j]!.length))),
  );
  const line = (values: string[]) =>
    values
      .map((v, j) => (v.length > widths[j]! ? `${v.slice(0, widths[j]! - 1)}…` : v.padEnd(widths[j]!)))
      .join('  ')
      .trimEnd();
  return `${[line(result.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')}\n(${rows.length} row${rows.length === 1 ? '' : 's'})\n`;
}

/** The same JSON array on one line: one line per statement of a script (JSON Lines). */
export function jsonLine(result: ResultTable): string {
  return `[${rowsOf(result)
    .map((row) => jsonRow(result.columns, row))
    .join(',')}]\n`;
}
