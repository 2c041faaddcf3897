import type { Item } from '../../shared/dynamo/attribute-value';
import { plainText } from '../../main/csv/item-csv';
import { exportText, plainRow } from '../../main/export-rows/export-chunks';
import { sqlResultRows, type RowsSource } from '../../main/export-rows/rows-source';
import type { SqlService } from '../../main/sql/service';

export type SqlFormat = 'json' | 'csv' | 'table';

/** A result as the CLI holds it to print: its columns and its rows as items by column name. */
export interface PrintedResult {
  columns: readonly string[];
  items: Item[];
}

/**
 * A result the SQL service holds, read whole through the export's rows source (windows of
 * tagged values) and dropped from the worker, as the rows to print.
 */
export async function resultOf(service: SqlService, resultId: string): Promise<PrintedResult> {
  const items: Item[] = [];
  try {
    const source = await sqlResultRows(service, resultId);
    for await (const rows of source.batches()) items.push(...rows);
    return { columns: source.columns ?? [], items };
  } finally {
    await service.drop(resultId).catch(() => undefined);
  }
}

const sourceOf = (result: PrintedResult): RowsSource => ({
  total: result.items.length,
  keyNames: [],
  columns: result.columns,
  // eslint-disable-next-line @typescript-eslint/require-await -- a source is async; this one is in memory
  async *batches() {
    yield result.items;
  },
});

/**
 * A result as the CLI prints it: JSON (an array of row objects, exact numbers) and CSV through
 * the export's one writer, or aligned text.
 */
export async function printResult(result: PrintedResult, format: SqlFormat): Promise<string> {
  if (format !== 'table') return exportText(sourceOf(result), format);
  const { columns, items } = result;
  const cells = items.map((item) =>
    columns.map((name) => plainText(Object.hasOwn(item, name) ? item[name] : undefined).replace(/\s+/g, ' ')),
  );
  const widths = columns.map((c, j) =>
    Math.min(60, Math.max(c.length, ...cells.slice(0, 1000).map((r) => r[j]!.length))),
  );
  const line = (values: readonly string[]) =>
    values
      .map((v, j) => (v.length > widths[j]! ? `${v.slice(0, widths[j]! - 1)}…` : v.padEnd(widths[j]!)))
      .join('  ')
      .trimEnd();
  return `${[line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')}\n(${items.length} row${items.length === 1 ? '' : 's'})\n`;
}

/** The same JSON array on one line: one line per statement of a script (JSON Lines). */
export function jsonLine(result: PrintedResult): string {
  const source = sourceOf(result);
  return `[${result.items.map((item) => plainRow(item, source)).join(',')}]\n`;
}
