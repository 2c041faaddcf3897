import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { z } from 'zod';
import type { exportInput, ExportReport } from '../../../shared/ipc/transfer';
import type { ResultSetStore } from '../../resultsets/types';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { exportChunks } from './export-chunks';
import type { TransferScope } from './transfer-folders';
import { checkExportPath } from './transfer-paths';

/** The contract's input with the file decided: a chosen file's path, or the path given. */
type ExportInput = Omit<z.output<typeof exportInput>, 'path' | 'fileId'> & { path: string };

/**
 * Streams the export to `<path>.part` with backpressure and renames it when complete, so a
 * cancelled or failed export never leaves a file that looks finished.
 */
export async function runExportToFile(
  store: ResultSetStore,
  input: ExportInput,
  total: number,
  run: OperationRun,
  scope: TransferScope,
): Promise<OperationOutcome<'transfer:export'>> {
  const target = await checkExportPath(input, scope);
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
  let items = 0;
  let bytes = 0;
  let lastEmit = 0;
  const progress = () => ({
    items,
    pages: 0,
    consumedCapacity: 0,
    fraction: total > 0 ? Math.min(1, items / total) : 1,
  });
  try {
    const onRows = (count: number): void => {
      items += count;
      if (Date.now() - lastEmit > 250) {
        lastEmit = Date.now();
        run.emit({ type: 'progress', progress: progress() });
      }
    };
    for await (const chunk of exportChunks(store, input, input.format, run.signal, onRows)) {
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), closed]);
    }
    out.end();
    await closed;
    if (run.signal.aborted) {
      await rm(partial, { force: true });
      return { progress: progress() };
    }
    await rename(partial, target);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  const report: ExportReport = { path: target, items, bytes };
  return { progress: progress(), value: report };
}
