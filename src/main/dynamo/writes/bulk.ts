import type { z } from 'zod';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { bulkActionProblem, planBulkRequest } from '../../../shared/dynamo/bulk-plan';
import { needsTypedConfirmation } from '../../../shared/dynamo/confirmation';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { bulkInput } from '../../../shared/ipc/items';
import type { CoreContext } from '../../core/context';
import type { WrittenItem } from '../../resultsets/types';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import type { ItemTarget } from '../items/item-access';
import { assertConfirmed, assertWritable } from './guards';
import { emptyReport, writeEach } from './write-each';
import type { JournalPair } from '../../journal/journal-files';
import { keepForUndo } from '../../journal/keep';

type BulkInput = z.output<typeof bulkInput>;

const SAMPLE = 5;
const WINDOW = 500;
const PROGRESS_EVERY_MS = 250;

async function sourceCount(ctx: CoreContext, input: BulkInput): Promise<{ count: number; sample: Item[] }> {
  if ('items' in input.source)
    return { count: input.source.items.length, sample: input.source.items.slice(0, SAMPLE) };
  const window = await ctx.resultSets.window(input.source.resultSetId, 0, SAMPLE);
  return { count: window.total, sample: window.rows };
}

function writeKind(input: BulkInput): 'bulk-delete' | 'bulk-update' {
  return input.action.type === 'delete' ? 'bulk-delete' : 'bulk-update';
}

function check(t: ItemTarget, input: BulkInput): void {
  const problem = bulkActionProblem({ table: t.info.name, keys: t.info.keys }, input.action);
  if (problem) throw new AppFailure(ErrorCodes.invalidInput, problem);
}

export async function previewBulk(ctx: CoreContext, t: ItemTarget, input: BulkInput) {
  check(t, input);
  const { count, sample } = await sourceCount(ctx, input);
  const first = sample[0];
  const target = { table: t.info.name, keys: t.info.keys };
  return {
    count,
    sample,
    // Each item is read consistently just before its write, and the write is conditioned on
    // what that read found (bulk-item.ts); the first item as the grid read it shows the shape.
    request: first
      ? { ...planBulkRequest(target, first, input.action, input.conditionOnSeen, { guard: first }) }
      : null,
    needsConfirmation: needsTypedConfirmation(writeKind(input), count, t.connection.isProduction),
  };
}

/** Validates and confirms in main before the operation starts; returns the work to run. */
export async function prepareBulk(ctx: CoreContext, t: ItemTarget, input: BulkInput) {
  assertWritable(t.connection);
  check(t, input);
  const { count } = await sourceCount(ctx, input);
  assertConfirmed(t.connection, t.info.name, writeKind(input), count, input.confirmTable);
  return (run: OperationRun) => runBulk(ctx, t, input, count, run);
}

async function* itemsOf(ctx: CoreContext, input: BulkInput): AsyncGenerator<Item[]> {
  if ('items' in input.source) {
    for (let i = 0; i < input.source.items.length; i += WINDOW) yield input.source.items.slice(i, i + WINDOW);
    return;
  }
  for (let offset = 0; ; offset += WINDOW) {
    const window = await ctx.resultSets.window(input.source.resultSetId, offset, WINDOW);
    if (window.rows.length === 0) return;
    yield window.rows;
  }
}

const plural = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** Runs the bulk job through the one bulk write path, reporting progress at most every quarter second. */
async function runBulk(
  ctx: CoreContext,
  t: ItemTarget,
  input: BulkInput,
  total: number,
  run: OperationRun,
): Promise<OperationOutcome<'bulk:start'>> {
  const report = emptyReport();
  const verb = input.action.type === 'delete' ? 'deleted' : 'updated';
  const progress = () => {
    const done = report.succeeded + report.conflicts + report.failed;
    return {
      items: done,
      pages: 0,
      consumedCapacity: 0,
      fraction: total > 0 ? Math.min(1, done / total) : 1,
      message: `${report.succeeded} ${verb}, ${report.conflicts} changed since read, ${report.failed} failed`,
    };
  };
  // The job reads its items from a result set by offset: rows leaving it meanwhile would shift
  // the rest past the reader, so that set hears of the writes once the job ends.
  const readsResultSet = !('items' in input.source);
  const held: WrittenItem[] = [];
  const journal = t.journal(
    writeKind(input),
    `Bulk ${input.action.type === 'delete' ? 'delete' : 'update'} of ${plural(total, 'item')}`,
  );
  const pairs: JournalPair[] = [];
  let lastEmit = Date.now();
  try {
    await writeEach(t, itemsOf(ctx, input), report, run, {
      action: input.action,
      conditionOnSeen: input.conditionOnSeen,
      // The whole item before (a projected read may lack an attribute the update removes).
      onWritten: (key, _read, before, after) => pairs.push({ key, before, after }),
      // On disk before the write is sent: a job killed mid-way still journals every write it sent.
      onIntent: (key, before, after) => journal.intend({ key, before, after }),
      onRefused: (key) => journal.refuse(key),
      record: async (written) => {
        if (readsResultSet) held.push(...written);
        else await t.record(written);
      },
      afterBatch: async () => {
        // Each batch's items are on disk as soon as it ends, so a job stopped mid-way leaves at
        // most one batch of writes unconfirmed. A failed append shows up when the entry is
        // finished, as the report's journalProblem.
        if (pairs.length > 0) await journal.add(pairs.splice(0)).catch(() => undefined);
        // A million items must not mean a million events.
        if (Date.now() - lastEmit < PROGRESS_EVERY_MS) return;
        lastEmit = Date.now();
        run.emit({ type: 'progress', progress: progress() });
      },
    });
  } finally {
    await t.record(held.splice(0));
    Object.assign(report, await keepForUndo(journal, pairs.splice(0)));
  }
  return { progress: progress(), value: report };
}
