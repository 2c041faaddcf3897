import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { Progress } from '../../../shared/ipc/operations';
import type { TableExportReport } from '../../../shared/ipc/transfer';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { RateMeter } from '../../core/rate-meter';
import { viewKeyNames } from '../../../shared/dynamo/key-model';
import { exportChunks } from '../../export-rows/export-chunks';
import { writeChunksToFile } from '../../export-rows/export-file';
import type { RowsSource } from '../../export-rows/rows-source';
import { tableSummary } from '../table-metadata';
import { type ScanPage, segmentedScan } from '../read/segmented-read';
import type { TableExportCheckpoint, TableExportStore } from './table-export-store';

type Outcome = OperationOutcome<'transfer:exportTable'>;

/** A table above this size is read in parallel segments; below it one segment keeps Scan's order. */
const PARALLEL_FROM_BYTES = 128 * 1024 * 1024;
const SEGMENTS = 4;
const SPOOL_BATCH = 1000;
const LINE_HEAD = '{"Item":';

export function segmentsFor(sizeBytes: number): number {
  return sizeBytes >= PARALLEL_FROM_BYTES ? SEGMENTS : 1;
}

/**
 * A whole-table (or index) export: every page of a Scan is appended to the spool, then its
 * segment's place is saved; when every segment is done the spool becomes the file in the chosen
 * format (`<path>.part`, renamed when complete). Cancel, a failure or a crash leave the place and
 * the spool: the next run cuts the spool back to what the place accounts for and goes on.
 */
export async function runTableExport(
  client: DynamoDBClient,
  store: TableExportStore,
  checkpoint: TableExportCheckpoint,
  run: OperationRun,
): Promise<Outcome> {
  const meter = new RateMeter();
  let pages = 0;
  let lastEmit = 0;
  const progress = (message?: string): Progress => {
    const perSecond = meter.current(checkpoint.items);
    const left = Math.max(0, checkpoint.sourceCount - checkpoint.items);
    return {
      items: checkpoint.items,
      pages,
      consumedCapacity: checkpoint.consumedCapacity,
      ...(checkpoint.sourceCount > 0
        ? { fraction: Math.min(0.99, checkpoint.items / checkpoint.sourceCount) }
        : {}),
      ...(perSecond ? { perSecond, etaSeconds: Math.round(left / perSecond) } : {}),
      ...(message ? { message } : {}),
    };
  };
  const stop = async (): Promise<void> => {
    checkpoint.state = 'stopped';
    await store.save(checkpoint);
  };

  if (checkpoint.segments.some((s) => !s.done)) {
    try {
      await readToSpool(client, store, checkpoint, run, (count, consumed) => {
        pages++;
        meter.rate(checkpoint.items);
        if (Date.now() - lastEmit > 250 || count === 0) {
          lastEmit = Date.now();
          run.emit({ type: 'progress', progress: progress(`reading ${checkpoint.table}`) });
        }
        return consumed;
      });
    } catch (error) {
      await stop();
      throw error;
    }
    if (run.signal.aborted) {
      await stop();
      return { progress: progress('stopped; resume goes on from here') };
    }
  }

  run.emit({ type: 'progress', progress: progress('writing the file') });
  let bytes: number;
  try {
    // The pages are read: a table deleted since still gets its file, without the key order.
    const info = await tableSummary(client, checkpoint.table, run.signal).catch(() => undefined);
    const index = info?.indexes.find((i) => i.name === checkpoint.index);
    const keyNames = info ? viewKeyNames(info.keys, index?.keys) : [];
    bytes = await writeTarget(await store.spool(checkpoint.exportId), checkpoint, keyNames, run.signal);
  } catch (error) {
    await stop();
    throw error;
  }
  if (run.signal.aborted) {
    await stop();
    return { progress: progress('stopped; resume writes the file') };
  }
  await store.remove(checkpoint.exportId);
  const report: TableExportReport = {
    exportId: checkpoint.exportId,
    path: checkpoint.path,
    items: checkpoint.items,
    bytes,
    consumedCapacity: checkpoint.consumedCapacity,
  };
  return { progress: { ...progress(), fraction: 1 }, value: report };
}

async function readToSpool(
  client: DynamoDBClient,
  store: TableExportStore,
  checkpoint: TableExportCheckpoint,
  run: OperationRun,
  onPage: (count: number, consumed: number) => void,
): Promise<void> {
  const spool = await store.spool(checkpoint.exportId);
  const present = await stat(spool).catch(() => undefined);
  if (checkpoint.spoolBytes > 0 && (!present || present.size < checkpoint.spoolBytes))
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `The pages this export read before it stopped are gone from ${spool}, so it cannot go on. Forget it and start the export again.`,
      false,
      { path: spool },
    );
  const handle = await open(spool, present ? 'r+' : 'w', 0o600);
  try {
    // A page appended after the last saved place is read again, so it is cut off here.
    await handle.truncate(checkpoint.spoolBytes);
    let position = checkpoint.spoolBytes;
    let queue: Promise<void> = Promise.resolve();
    checkpoint.state = 'running';
    await store.save(checkpoint);
    const append = (page: ScanPage<'wire'>): Promise<void> => {
      let text = '';
      let count = 0;
      for (const item of page.items) {
        text += `${LINE_HEAD}${JSON.stringify(item)}}\n`;
        count++;
      }
      const bytes = Buffer.from(text, 'utf8');
      // Segments hand pages over concurrently; the spool and the place move one page at a time.
      queue = queue.then(async () => {
        if (bytes.length > 0) await handle.write(bytes, 0, bytes.length, position);
        position += bytes.length;
        checkpoint.spoolBytes = position;
        checkpoint.items += count;
        checkpoint.consumedCapacity += page.consumed;
        checkpoint.segments[page.segment] = {
          segment: page.segment,
          ...(page.nextKey ? { startKey: page.nextKey } : {}),
          done: page.nextKey === undefined,
        };
        await store.save(checkpoint);
        onPage(count, page.consumed);
      });
      return queue;
    };
    await segmentedScan({
      client,
      table: checkpoint.table,
      ...(checkpoint.index === undefined ? {} : { index: checkpoint.index }),
      cursors: checkpoint.segments.map((cursor) => ({ ...cursor })),
      totalSegments: checkpoint.totalSegments,
      signal: run.signal,
      items: 'wire',
      onPage: append,
    });
    await queue;
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The spool's items, a line at a time (`{"Item":X}` → X parsed: JSON.parse keeps `__proto__` an
 * own name, and numbers stay DynamoDB's decimal strings).
 */
async function* spoolItems(spool: string, signal: AbortSignal): AsyncGenerator<Item> {
  const lines = createInterface({ input: createReadStream(spool, 'utf8'), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (signal.aborted) return;
      if (line.startsWith(LINE_HEAD)) yield JSON.parse(line.slice(LINE_HEAD.length, -1)) as Item;
    }
  } finally {
    lines.close();
  }
}

/**
 * Writes the finished spool as the chosen format through the one rows writer (export-rows/), to
 * `<path>.part` renamed when complete; answers its size. Key attributes first (`keyNames`: the
 * table's key, then the exported index's), as a result set's export writes them. A CSV reads the
 * spool twice on this disk (columns and types first) instead of scanning the table twice.
 */
async function writeTarget(
  spool: string,
  checkpoint: TableExportCheckpoint,
  keyNames: readonly string[],
  signal: AbortSignal,
): Promise<number> {
  const source: RowsSource = {
    total: checkpoint.items,
    keyNames,
    async *batches() {
      let batch: Item[] = [];
      for await (const item of spoolItems(spool, signal)) {
        batch.push(item);
        if (batch.length >= SPOOL_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
  };
  return (
    (await writeChunksToFile(exportChunks(source, checkpoint.format, signal), checkpoint.path, signal)) ?? 0
  );
}
