import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SetAsideNotice } from '../../shared/ipc/data-files';
import type { StoppedJob } from '../../shared/ipc/jobs';
import { importParts, type TransferFormat, transferFormatSchema } from '../../shared/ipc/transfer';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { stringsNamed } from '../core/data-files';
import type { CoreContext } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import type { OperationChannel } from '../../shared/ipc/contract';
import { runningJobs } from '../core/running-jobs';
import { toAppError } from '../core/to-app-error';
import { type JobKindSpec, jobStore, type JobState, type JobView } from './job-store';

/**
 * Imports and purges in the one job store (<data>/jobs/import|purge/<id>.json): where each
 * stopped, what it wrote, and how to go on. An import read from a file resumes after the last
 * line it wrote (the record names the file with its size and modification time, so a changed
 * file is refused); a purge resumes by purging what is left (deleted items are gone). A run that
 * ends complete forgets its record; one that stops keeps it until it is resumed or forgotten.
 */
export interface ImportRecord {
  kind: 'import';
  id: string;
  connectionId: string;
  table: string;
  /** The file's name as the user chose it (an upload's, not the server's id for it), for the sentence. */
  file: string;
  /** How the file is read, which names its parts: lines (JSON Lines), rows (CSV), items (DynamoDB JSON). */
  format?: TransferFormat;
  mode: 'create-only' | 'overwrite';
  /** Where the file is and what it was when the import started; absent for pasted text (not resumable). */
  source?: { path: string; format: TransferFormat; size: number; mtimeMs: number };
  state: JobState;
  startedAt: string;
  updatedAt: string;
  /**
   * The line (a CSV's row, a DynamoDB-JSON document's item) up to which every item was written,
   * found already there or refused: a resume starts after it.
   */
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

function spec<T extends WorkRecord>(
  kind: T['kind'],
  payload: z.ZodType,
  what: string,
  /** How the sentence names the table: an import "into" it, a purge "of" it. */
  towards: 'into' | 'of',
): JobKindSpec<T> {
  return {
    kind,
    ids: ID,
    badId: (id) => `${id} is not the id of ${what}.`,
    payload,
    envelopeOf: (r) => ({ id: r.id, state: r.state, startedAt: r.startedAt }),
    what: (id) => `The record of ${what} ${id}`,
    held: (text) => {
      const [table] = stringsNamed(text, 'table');
      return table === undefined ? undefined : `${what} ${towards} ${table}`;
    },
    instead:
      towards === 'into'
        ? 'What it wrote stays in the table; look at the table to see where it stands. Other jobs are not affected.'
        : 'What it deleted stays deleted; look at the table to see what is left. Other jobs are not affected.',
  };
}

const importJob = spec<ImportRecord>(
  'import',
  base.extend({
    kind: z.literal('import'),
    file: z.string(),
    format: transferFormatSchema.optional(),
    mode: z.enum(['create-only', 'overwrite']),
    source: z
      .object({ path: z.string(), format: transferFormatSchema, size: count, mtimeMs: z.number() })
      .optional(),
    line: count,
    written: count,
    existing: count,
    problems: count,
  }),
  'an import',
  'into',
);
const purgeJob = spec<PurgeRecord>(
  'purge',
  base.extend({ kind: z.literal('purge'), deleted: count, alreadyGone: count, failed: count }),
  'a purge',
  'of',
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

/**
 * An import as a job: its record is kept while it runs and after it stops. Given a stopped
 * import's record (stoppedRecord), it goes on under that record. Answers the job's id.
 */
export function startImportJob(
  ctx: CoreContext,
  requestId: string,
  from: Fresh<ImportRecord> | ImportRecord,
  work: Work<'transfer:import' | 'transfer:resumeImport', ImportRecord>,
): string {
  const record: ImportRecord =
    'id' in from ? resumed(from) : { kind: 'import', ...newRecord('import'), ...from };
  return startRecorded(ctx, requestId, jobStore(ctx).view(importJob), record, work);
}

/** A purge as a job, new or going on under a stopped purge's record. Answers the job's id. */
export function startPurgeJob(
  ctx: CoreContext,
  requestId: string,
  from: Fresh<PurgeRecord> | PurgeRecord,
  work: Work<'tables:purge', PurgeRecord>,
): string {
  const record: PurgeRecord =
    'id' in from ? resumed(from) : { kind: 'purge', ...newRecord('purge'), ...from };
  return startRecorded(ctx, requestId, jobStore(ctx).view(purgeJob), record, work);
}

/** A stopped record running again: its error is the last run's, not this one's. */
function resumed<R extends WorkRecord>(record: R): R {
  const { error: _lastError, ...rest } = record;
  return { ...rest, state: 'running' } as R;
}

/**
 * A stopped import's or purge's record, to resume it: one still running, finished (its record
 * is gone), or of another connection or table is refused with a sentence; an unreadable one is
 * set aside (DataFileSetAside).
 */
export async function stoppedRecord<K extends WorkRecord['kind']>(
  ctx: CoreContext,
  kind: K,
  id: string,
  where: { connectionId: string; table: string },
): Promise<Extract<WorkRecord, { kind: K }>> {
  runningJobs(ctx).assertIdle(kind, id, `That ${kind} is already running.`);
  const record = (await (viewOf(ctx, kind) as JobView<WorkRecord>).load(
    id,
    `There is no stopped ${kind} ${id} to resume: it finished, or it was dismissed.`,
  )) as Extract<WorkRecord, { kind: K }>;
  if (record.connectionId !== where.connectionId || record.table !== where.table)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The ${kind} ${id} was of ${record.table} on another connection or table, not of ${where.table}.`,
    );
  return record;
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
  // Counts noted within a second of the last save are saved when that second is up, not only at
  // the next note: work that stalls (a write held up, throttled for minutes) or is killed then
  // still has its record say how far it got.
  let later: ReturnType<typeof setTimeout> | undefined;
  const save = (): Promise<void> => {
    clearTimeout(later);
    later = undefined;
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
      const wait = SAVE_EVERY_MS - (Date.now() - savedAt);
      if (wait <= 0) void save();
      else later ??= setTimeout(() => void save(), wait);
    };
    try {
      await save();
      const outcome = await work(run, note);
      if (run.signal.aborted) {
        record.state = 'stopped';
        await save();
      } else {
        clearTimeout(later);
        await saving.then(() => view.forget(record.id));
      }
      return outcome;
    } catch (error) {
      Object.assign(record, { state: 'stopped', error: toAppError(error).message });
      await save();
      throw error;
    }
  });
  return record.id;
}

const n = (value: number) => value.toLocaleString('en-US');

/**
 * Where a stopped import stands, in the file's own parts: "lines 1–4,400 of the file are done",
 * then what became of their items. Counted so, the numbers add up: the items written, found
 * already there and refused are the lines done (less blank lines, and a CSV's two header rows).
 */
function importSentence(r: ImportRecord, why: string): string {
  const part = importParts[r.format ?? r.source?.format ?? 'jsonl'];
  const header = part.one === 'row' && r.line >= 2 ? ' (rows 1 and 2 name and type the columns)' : '';
  const items = `${n(r.written)} ${r.written === 1 ? 'item' : 'items'} written, ${n(r.existing)} already in the table, ${r.problems === 1 ? '1 with a problem' : `${n(r.problems)} with problems`}`;
  const done =
    r.line === 0
      ? `No ${part.one} of the file was done yet.`
      : `${part.manyCapital} 1–${n(r.line)} of the file are done${header}: ${items}.`;
  const again = r.source
    ? `Resume goes on at ${part.one} ${n(r.line + 1)} of the same file, unless the file changed since.`
    : r.mode === 'create-only'
      ? 'Import the file again with "new items only" to add the rest: items already written are counted as existing.'
      : 'Import the file again to write the rest: the items already written are written again, unchanged.';
  return `The import of ${r.file} into ${r.table} stopped ${why}. ${done} ${again}`;
}

function sentenceOf(r: WorkRecord, interrupted: boolean): string {
  const why = interrupted ? 'when DynoTable closed' : r.error ? `(${r.error})` : 'when it was cancelled';
  if (r.kind === 'import') return importSentence(r, why);
  return `The purge of ${r.table} stopped ${why} after deleting ${n(r.deleted)} items. Resume purges what is left: deleted items are gone, so nothing is read or deleted twice.`;
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
        canResume: r.kind === 'purge' || r.source !== undefined,
      });
    }
  }
  return { jobs: jobs.sort((a, b) => b.startedAt.localeCompare(a.startedAt)), setAside };
}

/**
 * Forgets the stopped purges of a table a purge just emptied: there is nothing left for them to
 * delete, so no list should offer to resume them. A purge record that does not read is set aside
 * on the way, like any other: its notice is answered, for the purge's ending to say.
 */
export async function forgetEmptiedPurges(
  ctx: CoreContext,
  connectionId: string,
  table: string,
): Promise<SetAsideNotice[]> {
  const view = jobStore(ctx).view(purgeJob);
  const { records, setAside } = await view.list();
  for (const r of records)
    if (r.connectionId === connectionId && r.table === table && !runningJobs(ctx).isRunning('purge', r.id))
      await view.forget(r.id);
  return setAside;
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
