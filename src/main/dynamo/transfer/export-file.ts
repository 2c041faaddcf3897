import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { z } from 'zod';
import type { exportInput, ExportReport } from '../../../shared/ipc/transfer';
import type { ResultSetStore } from '../../core/context';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { exportChunks } from './export-chunks';
import { checkExportPath } from './transfer-paths';

type ExportInput = z.output<typeof exportInput>;

/**
 * Streams the export to `<path>.part` with backpressure and renames it when complete, so a
 * cancelled or failed export never leaves a file that looks finished.
 */
export async function runExportToFile(
  store: ResultSetStore,
  input: ExportInput,
  total: number,
  run: OperationRun,
): Promise<OperationOutcome> {
  const target = await checkExportPath(input);
  const partial = `${target}.part`;
  const out = createWriteStream(partial, { encoding: 'utf8' });
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
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
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
