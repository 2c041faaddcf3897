import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SetAsideNotice } from '../../shared/ipc/data-files';
import type { StoppedJob } from '../../shared/ipc/jobs';
import { stringsNamed } from '../core/data-files';
import type { CoreContext } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import type { OperationChannel } from '../../shared/ipc/contract';
import { runningJobs } from '../core/running-jobs';
import { toAppError } from '../core/to-app-error';
import { type JobKindSpec, jobStore, type JobState, type JobView } from './job-store';

/**
 * Imports and purges in the one job store (<data>/jobs/import|purge/<id>.json): neither can pick
 * up where it stopped (a file read as a stream, a Scan whose deleted items are gone), so the
 * record is what a user needs after a restart: where it stopped, what it wrote, and how to go on.
 * A run that ends complete forgets its record; one that stops keeps it until `jobs:forget`.
 */
export interface ImportRecord {
  kind: 'import';
  id: string;
  connectionId: string;
  table: string;
  /** The file's name as the user chose it (no folder: that stays on the machine that ran it). */
  file: string;
  mode: 'create-only' | 'overwrite';
  state: JobState;
  startedAt: string;
  updatedAt: string;
  /** The last line read of the file. */
  line: number;
  written: number;
  existing: number;
  problems: number;
  error?: string;
}

export interface PurgeRecord {
  kind: 'purge';
  id: string;
  connectionId: string;
  table: string;
  state: JobState;
  startedAt: string;
  updatedAt: string;
  deleted: number;
  alreadyGone: number;
  failed: number;
  error?: string;
}

type WorkRecord = ImportRecord | PurgeRecord;

const ID = /^(import|purge)-[A-Za-z0-9_-]{6,80}$/;
const base = z.object({
  id: z.string(),
  connectionId: z.string(),
  table: z.string(),
  state: z.enum(['running', 'stopped', 'complete']),
  startedAt: z.string(),
  updatedAt: z.string(),
  error: z.string().optional(),
});
const count = z.number().int().min(0);

function spec<T extends WorkRecord>(kind: T['kind'], payload: z.ZodType, what: string): JobKindSpec<T> {
  return {
    kind,
    ids: ID,
    badId: (id) => `${id} is not the id of ${what}.`,
    payload,
    envelopeOf: (r) => ({ id: r.id, state: r.state, startedAt: r.startedAt }),
    what: (id) => `The record of ${what} ${id}`,
    held: (text) => {
      const [table] = stringsNamed(text, 'table');
      return table === undefined ? undefined : `${what} into ${table}`;
    },
    instead: `What it wrote stays in the table; look at the table to see where it stands. Other jobs are not affected.`,
  };
}

const importJob = spec<ImportRecord>(
  'import',
  base.extend({
    kind: z.literal('import'),
    file: z.string(),
    mode: z.enum(['create-only', 'overwrite']),
    line: count,
    written: count,
    existing: count,
    problems: count,
  }),
  'an import',
);
const purgeJob = spec<PurgeRecord>(
  'purge',
  base.extend({ kind: z.literal('purge'), deleted: count, alreadyGone: count, failed: count }),
  'a purge',
);

const viewOf = (ctx: CoreContext, kind: WorkRecord['kind']) =>
  kind === 'import' ? jobStore(ctx).view(importJob) : jobStore(ctx).view(purgeJob);

/** Saves at most this often while the work runs: the record is for after a crash, not a progress bar. */
const SAVE_EVERY_MS = 1_000;

type Fresh<R extends WorkRecord> = Omit<R, 'kind' | 'id' | 'state' | 'startedAt' | 'updatedAt'>;
type Work<C extends OperationChannel, R extends WorkRecord> = (
  run: OperationRun,
  note: (patch: Partial<R>) => void,
) => Promise<OperationOutcome<C>>;

/** An import as a job: its record is kept while it runs and after it stops. Answers the job's id. */
export function startImportJob(
  ctx: CoreContext,
  requestId: string,
  fresh: Fresh<ImportRecord>,
  work: Work<'transfer:import', ImportRecord>,
): string {
  const record: ImportRecord = { kind: 'import', ...newRecord('import'), ...fresh };
  return startRecorded(ctx, requestId, jobStore(ctx).view(importJob), record, work);
}

/** A purge as a job: its record is kept while it runs and after it stops. Answers the job's id. */
export function startPurgeJob(
  ctx: CoreContext,
  requestId: string,
  fresh: Fresh<PurgeRecord>,
  work: Work<'tables:purge', PurgeRecord>,
): string {
  const record: PurgeRecord = { kind: 'purge', ...newRecord('purge'), ...fresh };
  return startRecorded(ctx, requestId, jobStore(ctx).view(purgeJob), record, work);
}

function newRecord(kind: WorkRecord['kind']): Pick<WorkRecord, 'id' | 'state' | 'startedAt' | 'updatedAt'> {
  const now = new Date().toISOString();
  const id = `${kind}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  return { id, state: 'running', startedAt: now, updatedAt: now };
}

/**
 * Runs the work as a job of the one list of running jobs, its record kept on the way: `work`
 * reports its counts with `note` (saved at most once a second, and at the end). Complete, the
 * record goes; cancelled or failed, it stays as stopped with its counts and the error.
 */
function startRecorded<C extends OperationChannel, R extends WorkRecord>(
  ctx: CoreContext,
  requestId: string,
  view: JobView<R>,
  record: R,
  work: Work<C, R>,
): string {
  let saving: Promise<void> = Promise.resolve();
  let savedAt = 0;
  const save = (): Promise<void> => {
    savedAt = Date.now();
    const copy = { ...record, updatedAt: new Date().toISOString() };
    // A record that could not be written is no reason to stop the work; the next save tries again.
    saving = saving.then(() => view.write(copy)).catch(() => undefined);
    return saving;
  };
  const job = { kind: record.kind, id: record.id, requestId, busy: 'That job is already running.' } as const;
  runningJobs(ctx).start(job, async (run) => {
    const note = (patch: Partial<R>): void => {
      Object.assign(record, patch);
      if (Date.now() - savedAt >= SAVE_EVERY_MS) void save();
    };
    try {
      await save();
      const outcome = await work(run, note);
      if (run.signal.aborted) {
        record.state = 'stopped';
        await save();
      } else await saving.then(() => view.forget(record.id));
      return outcome;
    } catch (error) {
      Object.assign(record, { state: 'stopped', error: toAppError(error).message });
      await save();
      throw error;
    }
  });
  return record.id;
}

function sentenceOf(r: WorkRecord, interrupted: boolean): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const why = interrupted ? 'when DynoTable closed' : r.error ? `(${r.error})` : 'when it was cancelled';
  if (r.kind === 'import') {
    const again =
      r.mode === 'create-only'
        ? 'Import the file again with "new items only" to add the rest: items already written are counted as existing.'
        : 'Import the file again to write the rest: the items already written are written again, unchanged.';
    return `The import of ${r.file} into ${r.table} stopped at line ${n(r.line)} ${why}; ${n(r.written)} items were written. ${again}`;
  }
  return `The purge of ${r.table} stopped ${why} after deleting ${n(r.deleted)} items. Purge the table again to delete the rest: deleted items are gone, so it reads only what is left.`;
}

/** A connection's imports and purges that did not finish, newest first, each with its sentence. */
export async function stoppedJobs(
  ctx: CoreContext,
  connectionId: string,
): Promise<{ jobs: StoppedJob[]; setAside: SetAsideNotice[] }> {
  const jobs: StoppedJob[] = [];
  const setAside: SetAsideNotice[] = [];
  for (const kind of ['import', 'purge'] as const) {
    const listed = await viewOf(ctx, kind).list();
    setAside.push(...listed.setAside);
    for (const r of listed.records as WorkRecord[]) {
      if (r.connectionId !== connectionId || runningJobs(ctx).isRunning(kind, r.id)) continue;
      if (r.state === 'complete') continue;
      const interrupted = r.state === 'running';
      jobs.push({
        kind,
        id: r.id,
        connectionId,
        table: r.table,
        state: interrupted ? 'interrupted' : 'stopped',
        startedAt: r.startedAt,
        updatedAt: r.updatedAt,
        items: r.kind === 'import' ? r.written : r.deleted,
        sentence: sentenceOf(r, interrupted),
      });
    }
  }
  return { jobs: jobs.sort((a, b) => b.startedAt.localeCompare(a.startedAt)), setAside };
}

/** Forgets a stopped import's or purge's record; a running one is refused. */
export async function forgetStoppedJob(
  ctx: CoreContext,
  kind: WorkRecord['kind'],
  id: string,
): Promise<{ forgotten: boolean }> {
  runningJobs(ctx).assertIdle(kind, id, 'That job is still running; cancel it first.');
  return { forgotten: await viewOf(ctx, kind).forget(id) };
}
