import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { ExportReport, RowsFormat } from '../../shared/ipc/transfer';
import type { OperationOutcome, OperationRun } from '../core/operations';
import type { TransferScope } from '../dynamo/transfer/transfer-folders';
import { checkExportPath } from '../dynamo/transfer/transfer-paths';
import { exportChunks } from './export-chunks';
import type { RowsSource } from './rows-source';

/**
 * Streams text chunks to `<target>.part` with backpressure and renames it when complete, so a
 * cancelled or failed export never leaves a file that looks finished. Answers the bytes written,
 * or undefined when `signal` stopped it (the partial file is then gone).
 */
export async function writeChunksToFile(
  chunks: AsyncIterable<string>,
  target: string,
  signal: AbortSignal,
): Promise<number | undefined> {
  const partial = `${target}.part`;
  // A stale .part (or a link planted under its name) is removed, and 'wx' creates the file
  // afresh: the export never writes through a symbolic link into another folder.
  await rm(partial, { force: true });
  const out = createWriteStream(partial, { encoding: 'utf8', flags: 'wx' });
  // An open or write failure (EACCES, ENOSPC) surfaces through finished() below as a sentence;
  // without a listener it would be an uncaught 'error' event that takes the process down.
  out.on('error', () => undefined);
  const closed = finished(out);
  closed.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      if (chunk === '') continue;
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), closed]);
    }
    out.end();
    await closed;
    if (signal.aborted) {
      await rm(partial, { force: true });
      return undefined;
    }
    await rename(partial, target);
    return bytes;
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/** An export of rows (a result set's, a SQL result's) to a file, as an operation with progress and cancel. */
export async function runExportToFile(
  source: RowsSource,
  input: { path: string; overwrite?: boolean | undefined; format: RowsFormat },
  run: OperationRun,
  scope: TransferScope,
): Promise<OperationOutcome<'transfer:export'>> {
  const target = await checkExportPath(input, scope);
  let items = 0;
  let lastEmit = 0;
  const progress = () => ({
    items,
    pages: 0,
    consumedCapacity: 0,
    fraction: source.total > 0 ? Math.min(1, items / source.total) : 1,
  });
  const onRows = (count: number): void => {
    items += count;
    if (Date.now() - lastEmit > 250) {
      lastEmit = Date.now();
      run.emit({ type: 'progress', progress: progress() });
    }
  };
  const chunks = exportChunks(source, input.format, run.signal, onRows);
  const bytes = await writeChunksToFile(chunks, target, run.signal);
  if (bytes === undefined) return { progress: progress() };
  const report: ExportReport = { path: target, items, bytes };
  return { progress: progress(), value: report };
}
