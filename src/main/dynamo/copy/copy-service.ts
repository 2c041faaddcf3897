import { mappingProblem } from '../../../shared/dynamo/copy-mapping';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopyStartInput } from '../../../shared/ipc/copy';
import type { CoreContext } from '../../core/context';
import { recordWrites } from '../../resultsets/write-sync';
import { startJournalEntry } from '../../journal/journal-files';
import { withDeadline } from '../deadline';
import { tableSummary } from '../table-metadata';
import { consistentReader } from '../items/item-access';
import { assertWritable } from '../writes/guards';
import { type CopyCheckpoint, CopyStore, newCopyId } from './copy-checkpoint';
import { pagedRequestOf } from './copy-source';
import { runCopy } from './copy-run';
import { resolveViewSource } from './copy-view';
import { rateProblem } from './copy-capacity';
import { announceTableChange } from '../../sql/service-registry';
import { runningJobs } from '../../core/running-jobs';
import { jobStore } from '../../jobs/job-store';

/** A copy onto the table it reads would read its own writes. */
export function assertDistinct(
  input: Pick<CopyStartInput, 'source' | 'target'>,
  isSameDatabase: boolean,
): void {
  if (isSameDatabase && input.source.table === input.target.table)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The source and the target are the same table, ${input.target.table}. Name another target table.`,
    );
}

export function newCheckpoint(copyId: string, input: Omit<CopyStartInput, 'requestId'>): CopyCheckpoint {
  const now = new Date().toISOString();
  return {
    version: 1,
    copyId,
    input,
    state: 'running',
    startedAt: now,
    savedAt: now,
    sourceCount: 0,
    counts: { read: 0, written: 0, skipped: 0, failed: 0 },
    failures: [],
    notes: [],
  };
}

/**
 * copy:start — refuses in main, before anything is written, what would fail anyway: a
 * read-only target, the same table as source and target, a mapping that drops a key, a read
 * spec the builder cannot make. The client's read-only guard refuses each write again.
 */
export async function startCopy(
  ctx: CoreContext,
  input: CopyStartInput,
): Promise<{ started: boolean; copyId: string }> {
  const { requestId, ...settings } = input;
  assertWritable(await ctx.connections.get(input.target.connectionId));
  assertDistinct(input, input.source.connectionId === input.target.connectionId);
  const rates = rateProblem(input);
  if (rates) throw new AppFailure(ErrorCodes.invalidInput, rates);
  const client = await ctx.clients.dynamo(input.source.connectionId);
  const info = await withDeadline(30_000, `looking up ${input.source.table}`, (signal) =>
    tableSummary(client, input.source.table, signal),
  );
  const problem = mappingProblem(input.mapping, info.keys);
  if (problem) throw new AppFailure(ErrorCodes.invalidInput, problem);
  const { source, note } = await resolveViewSource(ctx, input.source, info);
  pagedRequestOf(info, source);
  const checkpoint = newCheckpoint(newCopyId(), { ...settings, source });
  if (note) checkpoint.notes.push(note);
  const store = new CopyStore(jobStore(ctx));
  await store.save(checkpoint);
  await launch(ctx, store, checkpoint, requestId);
  return { started: true, copyId: checkpoint.copyId };
}

/** copy:resume — the stored settings, from the stored place; the target is checked writable again. */
export async function resumeCopy(
  ctx: CoreContext,
  requestId: string,
  copyId: string,
): Promise<{ started: boolean; copyId: string }> {
  const store = new CopyStore(jobStore(ctx));
  const checkpoint = await store.load(copyId);
  runningJobs(ctx).assertIdle('copy', copyId, `The copy ${copyId} is already running.`);
  if (checkpoint.state === 'complete')
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The copy ${copyId} is complete; there is nothing to resume.`,
    );
  assertWritable(await ctx.connections.get(checkpoint.input.target.connectionId));
  checkpoint.state = 'running';
  await launch(ctx, store, checkpoint, requestId);
  return { started: true, copyId };
}

/** A checkpoint saying `running` that no job of this core runs was cut off. */
export function listCopies(ctx: CoreContext) {
  return new CopyStore(jobStore(ctx)).list((copyId) => runningJobs(ctx).isRunning('copy', copyId));
}

/** copy:discard — forgets an unfinished copy; the items it wrote stay in the target. */
export async function discardCopy(ctx: CoreContext, copyId: string): Promise<{ discarded: boolean }> {
  runningJobs(ctx).assertIdle(
    'copy',
    copyId,
    `The copy ${copyId} is running; cancel it before discarding it.`,
  );
  return { discarded: await new CopyStore(jobStore(ctx)).remove(copyId) };
}

async function launch(
  ctx: CoreContext,
  store: CopyStore,
  checkpoint: CopyCheckpoint,
  requestId: string,
): Promise<void> {
  const { source, target } = checkpoint.input;
  const [sourceConnection, targetConnection] = await Promise.all([
    ctx.connections.get(source.connectionId),
    ctx.connections.get(target.connectionId),
  ]);
  const [sourceClient, targetClient] = await Promise.all([
    ctx.clients.dynamo(source.connectionId),
    ctx.clients.dynamo(target.connectionId),
  ]);
  const { copyId } = checkpoint;
  const job = {
    kind: 'copy',
    id: copyId,
    requestId,
    busy: `The copy ${copyId} is already running.`,
  } as const;
  runningJobs(ctx).start(job, (run) =>
    runCopy(
      {
        source: { client: sourceClient, label: sourceConnection.label },
        target: { client: targetClient, label: targetConnection.label },
        store,
        resultSets: ctx.resultSets,
        record: (writes) => recordWrites(ctx, target.connectionId, target.table, writes, 'copy'),
        startJournal: (reason) =>
          startJournalEntry(
            ctx.dataDir,
            target.connectionId,
            { table: target.table, action: 'put', source: 'copy', reason },
            consistentReader(targetClient),
          ),
      },
      checkpoint,
      run,
    ).finally(async () => {
      // The copy may have created its target: SQL lists it at once.
      if (target.create) await announceTableChange(ctx, target.connectionId, target.table);
    }),
  );
}
