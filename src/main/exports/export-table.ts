import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { ColumnarTable } from '../sql/executor/table';
import { changeOf, forEachLineBatch, keyNamesFromChanges, locateExport } from './export-open';
import type { ExportFiles } from './export-source';

export interface ExportTableOptions {
  /** The export of the location to read (the id ending its ARN). */
  exportId?: string;
  keyAttributes?: string[];
  signal?: AbortSignal;
  onItems?: (items: number) => void;
}

/** Lines become items this many at a time, so a 4 MB batch is not one array of objects. */
const APPEND_ROWS = 1000;

function linesOf(bytes: Uint8Array): string[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** One spelling of a key, for matching an incremental change to its base item. */
function keyText(item: Item, names: readonly string[]): string {
  return JSON.stringify(names.map((name) => (Object.hasOwn(item, name) ? item[name] : null)));
}

/**
 * Reads an export into a SQL table: the incremental exports' changes first (few next to the
 * table), then the base full export's lines, skipping items a later change replaced or deleted,
 * then the changed items as of the latest export. Reads S3 or the disk only, never the table,
 * so it uses no read capacity. Numbers stay the decimal text DynamoDB wrote.
 */
export async function readExportTable(
  files: ExportFiles,
  name: string,
  options: ExportTableOptions = {},
): Promise<{ table: ColumnarTable; items: number }> {
  const located = await locateExport(files, options.exportId);
  const changeKeys = located.changeFiles.flat();
  const keyNames =
    options.keyAttributes && options.keyAttributes.length > 0
      ? options.keyAttributes
      : await keyNamesFromChanges(files, changeKeys);
  const changed = new Map<string, Item | null>();
  for (const key of changeKeys)
    await forEachLineBatch(
      await files.open(key),
      (bytes) => {
        for (const line of linesOf(bytes)) {
          const change = changeOf(line);
          changed.set(keyText(change.key, keyNames), change.item ?? null);
        }
        return Promise.resolve();
      },
      options.signal,
    );
  const table = new ColumnarTable(name, keyNames);
  for (const key of located.keys)
    await forEachLineBatch(
      await files.open(key),
      (bytes) => {
        const lines = linesOf(bytes);
        for (let start = 0; start < lines.length; start += APPEND_ROWS) {
          const items: Item[] = [];
          for (const line of lines.slice(start, start + APPEND_ROWS)) {
            const record = JSON.parse(line) as { Item?: Item };
            if (!record.Item)
              throw new AppFailure(ErrorCodes.invalidInput, `A line of ${key} has no "Item".`);
            if (changed.size > 0 && changed.has(keyText(record.Item, keyNames))) continue;
            items.push(record.Item);
          }
          table.appendTaggedItems(items);
        }
        options.onItems?.(table.rowCount);
        return Promise.resolve();
      },
      options.signal,
    );
  table.appendTaggedItems([...changed.values()].filter((item): item is Item => item !== null));
  return { table, items: table.rowCount };
}
