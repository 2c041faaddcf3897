import type { Item } from '../../shared/dynamo/attribute-value';
import { plainJsonObject } from '../../shared/dynamo/item-json';
import { inKeyOrder } from '../../shared/dynamo/item-order';
import type { RowsFormat } from '../../shared/ipc/transfer';
import {
  addColumns,
  columnsInKeyOrder,
  itemCsvHeader,
  itemCsvRows,
  plainCsvHeader,
  plainCsvRows,
  type ColumnType,
} from '../csv/item-csv';
import type { RowsSource } from './rows-source';

const CHUNK_CHARS = 256 * 1024;

/** How one format lays out a file: what opens it, each row (`first` for the separators), what closes it. */
interface Layout {
  open: string;
  row: (item: Item, first: boolean) => string;
  close: (isEmpty: boolean) => string;
}

function layoutOf(format: Exclude<RowsFormat, 'csv'>, source: RowsSource): Layout {
  const ordered = (item: Item) => inKeyOrder(item, source.keyNames, source.columns);
  switch (format) {
    case 'dynamodb-json':
      return {
        open: '{"Items": [\n',
        row: (item, first) => `${first ? '' : ',\n'}${JSON.stringify(ordered(item))}`,
        close: () => '\n]}\n',
      };
    case 'jsonl':
      return { open: '', row: (item) => `${JSON.stringify({ Item: ordered(item) })}\n`, close: () => '' };
    case 'json':
      return {
        open: '[',
        row: (item, first) => `${first ? '\n' : ',\n'}  ${plainRow(item, source)}`,
        close: (isEmpty) => (isEmpty ? ']\n' : '\n]\n'),
      };
  }
}

/** One row as a plain JSON object: a SQL result's every column (null when missing), or an item's attributes. */
export function plainRow(item: Item, source: Pick<RowsSource, 'keyNames' | 'columns'>): string {
  const ordered = inKeyOrder(item, source.keyNames, source.columns);
  return plainJsonObject(ordered, source.columns ?? Object.keys(ordered));
}

/**
 * The one writer of exported rows, for every source (rows-source.ts) and every place it goes:
 * a file (export-file.ts), an HTTP download (export-download.ts), the CLI's standard output.
 * Text arrives in chunks of about 256 KB. Key attributes come first (the source's keyNames) as
 * the first columns of a CSV and the first names of each JSON item; a SQL result keeps its
 * SELECT order. A typed CSV reads the rows twice: once for the columns and their types.
 */
export async function* exportChunks(
  source: RowsSource,
  format: RowsFormat,
  signal?: AbortSignal,
  onRows?: (count: number) => void,
): AsyncGenerator<string> {
  let buffer: string;
  let write: (rows: Item[]) => string;
  let close: (isEmpty: boolean) => string = () => '';
  if (format === 'csv' && source.columns) {
    const { columns } = source;
    buffer = plainCsvHeader(columns);
    // Nested maps by name, as in every other format: DynamoDB keeps no order.
    write = (rows) =>
      plainCsvRows(
        rows.map((item) => inKeyOrder(item, [], columns)),
        columns,
      );
  } else if (format === 'csv') {
    const columns = new Map<string, ColumnType>();
    for await (const rows of source.batches(signal)) for (const item of rows) addColumns(columns, item);
    const list = columnsInKeyOrder(columns, source.keyNames);
    buffer = itemCsvHeader(list);
    write = (rows) => itemCsvRows(rows, list);
  } else {
    const layout = layoutOf(format, source);
    buffer = layout.open;
    close = layout.close;
    let first = true;
    write = (rows) => {
      let text = '';
      for (const item of rows) {
        text += layout.row(item, first);
        first = false;
      }
      return text;
    };
  }
  let isEmpty = true;
  for await (const rows of source.batches(signal)) {
    if (rows.length > 0) isEmpty = false;
    buffer += write(rows);
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
    onRows?.(rows.length);
  }
  yield buffer + close(isEmpty);
}

/** The whole export as one string: for the CLI's printed results, which are small enough to hold. */
export async function exportText(source: RowsSource, format: RowsFormat): Promise<string> {
  let text = '';
  for await (const chunk of exportChunks(source, format)) text += chunk;
  return text;
}

export function exportFileName(name: string, format: RowsFormat): string {
  const extension = format === 'dynamodb-json' ? 'json' : format;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${stamp}.${extension}`;
}

export function exportContentType(format: RowsFormat): string {
  return format === 'csv'
    ? 'text/csv; charset=utf-8'
    : format === 'jsonl'
      ? 'application/x-ndjson'
      : 'application/json';
}
