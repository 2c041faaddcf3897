import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ExportChange, ResultSetStore } from '../resultsets/types';
import type { ExportFiles } from './export-source';
import { type ExportSummary, parseFilesManifest, parseSummary, tableNameOf } from './export-manifest';

export interface OpenExportOptions {
  connectionId: string;
  /** The table's key attributes, when known (an export does not record its key schema). */
  keyAttributes?: string[];
  /** Looks the key attributes up by the exported table's name (its DescribeTable), when not given. */
  keysOf?: (table: string) => Promise<string[] | undefined>;
  /** Which export of a prefix holding several (its id); the newest full export otherwise. */
  exportId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { items: number; files: number; totalFiles: number }) => void;
}

export interface OpenedExport {
  resultSetId: string;
  /** The name SQL and the grid show it by: `<table>-<yyyy-mm-dd>` of its export time. */
  name: string;
  table: string;
  exportArn: string;
  exportTime: string;
  items: number;
  keyAttributes: string[];
  /** Incremental exports applied on top, oldest first (their export ARNs). */
  incrementals: string[];
}

interface Found {
  root: string;
  summary: ExportSummary;
}

/** Whole lines go to the worker in batches about this big: big enough that messages are few. */
const BATCH_BYTES = 4 << 20;

/**
 * Streams each data file through gunzip and hands whole lines to `onLines` in buffers of their
 * own (transferred to the worker, so never a slice of Node's shared pool).
 */
export async function forEachLineBatch(
  stream: Readable,
  onLines: (lines: Uint8Array) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const gunzip = stream.pipe(createGunzip());
  let pending: Buffer[] = [];
  let size = 0;
  const flush = async (upTo?: number): Promise<void> => {
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, size);
    const end = upTo ?? joined.length;
    const out = new Uint8Array(end);
    out.set(joined.subarray(0, end));
    const rest = joined.subarray(end);
    pending = rest.length > 0 ? [Buffer.from(rest)] : [];
    size = rest.length;
    if (out.length > 0) await onLines(out);
  };
  for await (const chunk of gunzip) {
    if (signal?.aborted) {
      stream.destroy();
      throw new AppFailure(ErrorCodes.cancelled, 'Opening the export was cancelled.');
    }
    const buffer = chunk as Buffer;
    pending.push(buffer);
    size += buffer.length;
    if (size < BATCH_BYTES) continue;
    const joined = Buffer.concat(pending, size);
    pending = [joined];
    const lastNewline = joined.lastIndexOf(0x0a);
    if (lastNewline >= 0) await flush(lastNewline + 1);
  }
  if (size > 0) await flush();
}

async function findExports(files: ExportFiles): Promise<Found[]> {
  const roots = await files.exports();
  if (roots.length === 0)
    throw new AppFailure(
      ErrorCodes.notFound,
      `There is no DynamoDB export at ${files.describe()}: no manifest-summary.json there or under AWSDynamoDB/<export id>/.`,
    );
  const found: Found[] = [];
  for (const root of roots) {
    const key = root === '' ? 'manifest-summary.json' : `${root}/manifest-summary.json`;
    found.push({ root, summary: parseSummary(await files.readText(key), `${files.describe()}/${key}`) });
  }
  return found;
}

function pickBase(found: Found[], exportId: string | undefined, where: string): Found {
  const fulls = found.filter((f) => f.summary.exportType === 'FULL_EXPORT');
  const chosen = exportId
    ? found.find((f) => f.summary.exportArn.endsWith(`/${exportId}`))
    : fulls.sort((a, b) => a.summary.exportTime.localeCompare(b.summary.exportTime)).at(-1);
  if (!chosen)
    throw new AppFailure(
      ErrorCodes.notFound,
      exportId
        ? `There is no export ${exportId} at ${where}.`
        : `${where} holds only incremental exports; an incremental export is read on top of the full export it follows, so open the folder or prefix that holds both.`,
    );
  if (chosen.summary.exportType === 'INCREMENTAL_EXPORT')
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `Export ${exportId ?? ''} is incremental: it holds changes, not a table. Open its base full export; the incremental ones after it are applied on top.`,
    );
  if (chosen.summary.outputFormat === 'ION')
    throw new AppFailure(
      'UnsupportedExportFormat',
      'This export is in Amazon Ion; DynoTable opens exports in DynamoDB JSON. Export the table again choosing DynamoDB JSON.',
    );
  return chosen;
}

async function dataKeys(files: ExportFiles, found: Found): Promise<string[]> {
  const key = files.resolve(found.root, found.summary.manifestFilesKey);
  const entries = parseFilesManifest(await files.readText(key), `${files.describe()}/${key}`);
  return entries.map((entry) => files.resolve(found.root, entry.key));
}

export function changeOf(line: string): ExportChange {
  const record = JSON.parse(line) as { Keys?: Item; NewImage?: Item };
  if (!record.Keys)
    throw new AppFailure(ErrorCodes.invalidInput, 'An incremental export line has no "Keys".');
  return record.NewImage ? { key: record.Keys, item: record.NewImage } : { key: record.Keys };
}

export interface LocatedExport {
  base: Found;
  /** Later incremental exports of the same table, oldest first. */
  incrementals: Found[];
  table: string;
  /** The base's data files, then each incremental's, as stored keys or paths. */
  keys: string[];
  changeFiles: string[][];
}

/** The full export to read (the newest, or `exportId`) and the incremental ones that follow it. */
export async function locateExport(files: ExportFiles, exportId?: string): Promise<LocatedExport> {
  const found = await findExports(files);
  const base = pickBase(found, exportId, files.describe());
  const incrementals = found
    .filter(
      (f) =>
        f.summary.exportType === 'INCREMENTAL_EXPORT' &&
        f.summary.tableArn === base.summary.tableArn &&
        (f.summary.exportFromTime ?? '') >= base.summary.exportTime,
    )
    .sort((a, b) => (a.summary.exportFromTime ?? '').localeCompare(b.summary.exportFromTime ?? ''));
  const changeFiles = await Promise.all(incrementals.map((f) => dataKeys(files, f)));
  const keys = await dataKeys(files, base);
  return { base, incrementals, table: tableNameOf(base.summary.tableArn), keys, changeFiles };
}

/**
 * Opens an export as a read-only result set: the base full export's items encoded from the
 * decompressed bytes (no object per item), then each later incremental export of the same table
 * applied in order (its lines are changes, few next to the table, so they are parsed as JSON).
 * Reads S3 or the disk only; no DynamoDB capacity is used.
 */
export async function openExport(
  files: ExportFiles,
  store: ResultSetStore,
  options: OpenExportOptions,
): Promise<OpenedExport> {
  const { base, incrementals, table, changeFiles, keys } = await locateExport(files, options.exportId);
  const keyAttributes =
    options.keyAttributes ??
    (await options.keysOf?.(table)) ??
    (await keyNamesFromChanges(files, changeFiles.flat()));
  const resultSetId = await store.create({
    connectionId: options.connectionId,
    table: `export:${table}`,
    keyAttributes,
  });
  const totalFiles = keys.length + changeFiles.flat().length;
  let items = 0;
  let done = 0;
  for (const key of keys) {
    await forEachLineBatch(
      await files.open(key),
      async (lines) => {
        items = await store.appendExportLines(resultSetId, lines);
        options.onProgress?.({ items, files: done, totalFiles });
      },
      options.signal,
    );
    done++;
  }
  for (const key of changeFiles.flat()) {
    await forEachLineBatch(
      await files.open(key),
      async (lines) => {
        const changes = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength)
          .toString('utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map(changeOf);
        items = await store.applyExportChanges(resultSetId, changes);
      },
      options.signal,
    );
    done++;
    options.onProgress?.({ items, files: done, totalFiles });
  }
  return {
    resultSetId,
    name: `${table}-${base.summary.exportTime.slice(0, 10)}`,
    table,
    exportArn: base.summary.exportArn,
    exportTime: base.summary.exportTime,
    items,
    keyAttributes,
    incrementals: incrementals.map((f) => f.summary.exportArn),
  };
}

/** An incremental export's Keys name the table's key attributes; a lone full export has none. */
export async function keyNamesFromChanges(files: ExportFiles, keys: string[]): Promise<string[]> {
  for (const key of keys) {
    let names: string[] | undefined;
    await forEachLineBatch(await files.open(key), (lines) => {
      const text = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength).toString('utf8');
      const first = text.split('\n').find((line) => line.trim() !== '');
      if (first && !names) names = Object.keys(changeOf(first).key);
      return Promise.resolve();
    });
    if (names) return names;
  }
  return [];
}
