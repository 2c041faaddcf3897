import type { Item } from '../../../shared/dynamo/attribute-value';
import { inKeyOrder } from '../../../shared/dynamo/item-order';
import {
  addColumns,
  columnsInKeyOrder,
  itemCsvHeader,
  itemCsvRows,
  type ColumnType,
} from '../../csv/item-csv';
import type { TransferFormat } from '../../../shared/ipc/transfer';
import type { ResultSetStore } from '../../resultsets/types';

const WINDOW = 1000;
const CHUNK_CHARS = 256 * 1024;

export interface ExportSource {
  resultSetId: string;
  /** Selected row indexes; absent for every row. */
  rows?: number[];
}

/** Rows of a result set in order, a window at a time: a million rows never sit in memory at once. */
async function* rowsOf(
  store: ResultSetStore,
  source: ExportSource,
  signal?: AbortSignal,
): AsyncGenerator<Item[]> {
  const wanted = source.rows ? [...new Set(source.rows)].sort((a, b) => a - b) : undefined;
  if (wanted) {
    for (let i = 0; i < wanted.length && !signal?.aborted;) {
      const offset = wanted[i] ?? 0;
      const window = await store.window(source.resultSetId, offset, WINDOW);
      const picked: Item[] = [];
      while (i < wanted.length && (wanted[i] ?? 0) < offset + WINDOW) {
        const row = window.rows[(wanted[i] ?? 0) - offset];
        if (row) picked.push(row);
        i++;
      }
      yield picked;
    }
    return;
  }
  for (let offset = 0; !signal?.aborted; offset += WINDOW) {
    const window = await store.window(source.resultSetId, offset, WINDOW);
    if (window.rows.length === 0) return;
    yield window.rows;
    if (offset + window.rows.length >= window.total) return;
  }
}

const formats: Record<
  TransferFormat,
  { open: string; row: (item: Item, first: boolean) => string; close: string }
> = {
  'dynamodb-json': {
    open: '{"Items": [\n',
    row: (item, first) => `${first ? '' : ',\n'}${JSON.stringify(item)}`,
    close: '\n]}\n',
  },
  jsonl: { open: '', row: (item) => `${JSON.stringify({ Item: item })}\n`, close: '' },
  csv: { open: '', row: () => '', close: '' },
};

/**
 * The export as a stream of text chunks, for a file (desktop) or an HTTP download (browser
 * mode). CSV reads the rows twice: once for the columns and their types, once to write them.
 * Key attributes come first (the set's viewKeys: the table's key, then the read index's), as
 * columns of a CSV and as the first names of each JSON item.
 */
export async function* exportChunks(
  store: ResultSetStore,
  source: ExportSource,
  format: TransferFormat,
  signal?: AbortSignal,
  onRows?: (count: number) => void,
): AsyncGenerator<string> {
  let buffer = formats[format].open;
  let first = true;
  let write: (rows: Item[]) => string;
  const keyNames = (await store.window(source.resultSetId, 0, 0)).viewKeys ?? [];
  if (format === 'csv') {
    const columns = new Map<string, ColumnType>();
    for await (const rows of rowsOf(store, source, signal))
      for (const item of rows) addColumns(columns, item);
    const list = columnsInKeyOrder(columns, keyNames);
    buffer += itemCsvHeader(list);
    write = (rows) => itemCsvRows(rows, list);
  } else {
    write = (rows) => {
      let text = '';
      for (const item of rows) {
        text += formats[format].row(inKeyOrder(item, keyNames), first);
        first = false;
      }
      return text;
    };
  }
  for await (const rows of rowsOf(store, source, signal)) {
    buffer += write(rows);
    if (buffer.length >= CHUNK_CHARS) {
      yield buffer;
      buffer = '';
    }
    onRows?.(rows.length);
  }
  yield buffer + formats[format].close;
}

export function exportFileName(table: string, format: TransferFormat): string {
  const extension = format === 'dynamodb-json' ? 'json' : format;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `${table.replace(/[^A-Za-z0-9_.-]/g, '_')}-${stamp}.${extension}`;
}

export function exportContentType(format: TransferFormat): string {
  return format === 'csv'
    ? 'text/csv; charset=utf-8'
    : format === 'jsonl'
      ? 'application/x-ndjson'
      : 'application/json';
}
