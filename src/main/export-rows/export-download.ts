import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { rowsFormatSchema } from '../../shared/ipc/transfer';
import { confineExportPath } from '../dynamo/transfer/transfer-folders';
import { exportChunks, exportContentType, exportFileName } from './export-chunks';
import type { RowsSource } from './rows-source';

/** The rows a download names: `resultSetId=` or `sqlResultId=` (rows-source.ts's rowsSourceOf). */
export type SourceOfParams = (ids: {
  resultSetId: string | null;
  sqlResultId: string | null;
}) => Promise<RowsSource>;

/**
 * Browser mode's export: the same chunks as the desktop file export, streamed as an HTTP
 * download with backpressure, so a million rows never sit in the server's or the browser's
 * memory. The server's route (GET /api/download/export?resultSetId=|sqlResultId=&format=&table=)
 * does its usual token and origin checks, then calls this. Closing the tab stops the read.
 */
export async function streamExportDownload(
  sourceOf: SourceOfParams,
  params: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  const format = rowsFormatSchema.safeParse(params.get('format'));
  if (!format.success) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'An export download needs its rows (resultSetId or sqlResultId) and a format (dynamodb-json, jsonl, csv or json).',
    );
  }
  // Before the headers: an unknown result is an error answer, not an empty file.
  const source = await sourceOf({
    resultSetId: params.get('resultSetId'),
    sqlResultId: params.get('sqlResultId'),
  });
  const table = params.get('table') ?? 'export';
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  response.writeHead(200, {
    'Content-Type': exportContentType(format.data),
    'Content-Disposition': `attachment; filename="${exportFileName(table, format.data)}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  for await (const chunk of exportChunks(source, format.data, controller.signal)) {
    if (controller.signal.aborted) break;
    if (!response.write(chunk)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
  }
  response.end();
}

/**
 * Browser mode's download of an export already saved in DynoTable's export folder (a whole-table
 * export writes there): GET /api/download/export?saved=<name>. The name is confined to that
 * folder as a save is, so the page can fetch nothing else from the server's disk.
 */
export async function streamSavedExport(
  dataDir: string,
  params: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  const name = params.get('saved') ?? '';
  const file = await confineExportPath(name, { mode: 'browser', dataDir });
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile())
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `There is no export named ${name} in DynoTable's export folder; it was moved or deleted.`,
      false,
      { path: file },
    );
  const extension = path.extname(file).slice(1);
  const format = extension === 'json' ? 'dynamodb-json' : extension === 'csv' ? 'csv' : 'jsonl';
  response.writeHead(200, {
    'Content-Type': exportContentType(format),
    'Content-Length': String(found.size),
    'Content-Disposition': `attachment; filename="${path.basename(file).replace(/[^A-Za-z0-9_.-]/g, '_')}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  await pipeline(createReadStream(file), response);
}

/** GET /api/download/export: a saved export (`saved=`) or rows streamed as they are read. */
export function exportDownloadRoute(
  sourceOf: SourceOfParams,
  dataDir: string,
): (params: URLSearchParams, response: ServerResponse) => Promise<void> {
  return (params, response) =>
    params.has('saved')
      ? streamSavedExport(dataDir, params, response)
      : streamExportDownload(sourceOf, params, response);
}
