import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { transferFormatSchema } from '../../../shared/ipc/transfer';
import type { ResultSetStore } from '../../resultsets/types';
import { exportChunks, exportContentType, exportFileName } from './export-chunks';

/**
 * Browser mode's export: the same chunks as the desktop file export, streamed as an HTTP
 * download with backpressure, so a million rows never sit in the server's or the browser's
 * memory. The server's route (GET /api/download/export?resultSetId=&format=&table=) does its
 * usual token and origin checks, then calls this. Closing the tab stops the read.
 */
export async function streamExportDownload(
  store: ResultSetStore,
  params: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  const format = transferFormatSchema.safeParse(params.get('format'));
  const resultSetId = params.get('resultSetId');
  if (!format.success || !resultSetId) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'An export download needs a resultSetId and a format (dynamodb-json, jsonl or csv).',
    );
  }
  await store.window(resultSetId, 0, 0);
  const table = params.get('table') ?? 'export';
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  response.writeHead(200, {
    'Content-Type': exportContentType(format.data),
    'Content-Disposition': `attachment; filename="${exportFileName(table, format.data)}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  for await (const chunk of exportChunks(store, { resultSetId }, format.data, controller.signal)) {
    if (controller.signal.aborted) break;
    if (!response.write(chunk)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
  }
  response.end();
}
