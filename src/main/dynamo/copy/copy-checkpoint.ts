import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { CopyCheckpointSummary, CopyList, CopyStartInput } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { stringsNamed } from '../../core/data-files';
import { type JobKindSpec, JobStore, type JobView } from '../../jobs/job-store';
import type { SegmentCursor } from '../read/segmented-read';
import type { ItemFailure } from '../writes/put-items';

/** What a copy persists so that a cancel, a crash or expired credentials lose only the pages in flight. */
export interface CopyCheckpoint {
  version: 1;
  copyId: string;
  /** The settings it started with; a resume uses them, never new ones. */
  input: Omit<CopyStartInput, 'requestId'>;
  state: 'running' | 'stopped' | 'complete';
  startedAt: string;
  savedAt: string;
  /** Set once the target is ready (created or checked), so a resume neither creates nor checks again. */
  target?: { keys: KeySchema; created: boolean };
  /** Scan/Query sources: each segment's place. A page's items are written before its segment moves. */
  segments?: SegmentCursor[];
  /** A result-set source: rows done. */
  offset?: number;
  /** The source's approximate size, for the fraction and ETA. */
  sourceCount: number;
  counts: { read: number; written: number; skipped: number; failed: number };
  failures: ItemFailure[];
  notes: string[];
}

const ID = /^[A-Za-z0-9_-]{8,64}$/;
const MAX_LISTED = 50;

const side = z.object({ connectionId: z.string(), table: z.string() });
const count = z.number().int().nonnegative();
/**
 * What listing and resuming a checkpoint rely on. Only checked, never rebuilt from: the file's
 * own objects are used, so attribute names in its settings and failures stay as written.
 */
const checkpointShape = z.object({
  version: z.literal(1),
  copyId: z.string(),
  input: z.object({ source: side, target: side }),
  state: z.enum(['running', 'stopped', 'complete']),
  savedAt: z.string(),
  sourceCount: z.number(),
  counts: z.object({ read: count, written: count, skipped: count, failed: count }),
  failures: z.array(z.unknown()),
  notes: z.array(z.string()),
});

export const copyJob: JobKindSpec<CopyCheckpoint> = {
  kind: 'copy',
  ids: ID,
  badId: (id) => `${id} is not a copy id.`,
  payload: checkpointShape,
  envelopeOf: (c) => ({ id: c.copyId, state: c.state, startedAt: c.startedAt }),
  what: (copyId) => `The checkpoint of copy ${copyId}`,
  held: (text) => {
    const [from, to] = stringsNamed(text, 'table');
    if (from === undefined) return undefined;
    return `a copy from ${from}${to === undefined ? '' : ` to ${to}`}`;
  },
  instead:
    'That copy can no longer be resumed; what it wrote stays in the target. Other copies are not affected.',
  legacy: { checkpoint: '.json', sides: [] },
};

export function newCopyId(): string {
  return `copy-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The copies' checkpoints: a typed view of the job store (<data>/jobs/copy/). */
export class CopyStore {
  private readonly jobs: JobView<CopyCheckpoint>;

  /** `jobs`: the core's job store; a data folder builds one of its own (the CLI). */
  constructor(jobs: JobStore | string) {
    this.jobs = (typeof jobs === 'string' ? new JobStore(jobs) : jobs).view(copyJob);
  }

  save(checkpoint: CopyCheckpoint): Promise<void> {
    return this.jobs.write({ ...checkpoint, savedAt: new Date().toISOString() });
  }

  load(copyId: string): Promise<CopyCheckpoint> {
    return this.jobs.load(copyId, `There is no copy ${copyId} to resume on this machine.`);
  }

  /** Forgets a copy: its checkpoint goes; what it wrote stays in the target. */
  remove(copyId: string): Promise<boolean> {
    return this.jobs.forget(copyId);
  }

  /**
   * A checkpoint left `running` by a process that ended (a crash, a quit, Ctrl+C past the save)
   * is listed as stopped: only `isLive` copies are running now. A checkpoint that cannot be read
   * is set aside and named in `setAside`; the others are listed as ever.
   */
  async list(isLive: (copyId: string) => boolean = () => false): Promise<CopyList> {
    const { records, setAside } = await this.jobs.list();
    const copies = records
      .map((c): CopyCheckpointSummary => ({
        copyId: c.copyId,
        source: { connectionId: c.input.source.connectionId, table: c.input.source.table },
        target: { connectionId: c.input.target.connectionId, table: c.input.target.table },
        state: c.state === 'running' && !isLive(c.copyId) ? 'stopped' : c.state,
        itemsRead: c.counts.read,
        itemsWritten: c.counts.written,
        savedAt: c.savedAt,
      }))
      .sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1))
      .slice(0, MAX_LISTED);
    return setAside.length > 0 ? { copies, setAside } : { copies };
  }
}

/** A deep copy, so a save in progress never sees a page half-applied. */
export function snapshotOf(c: CopyCheckpoint): CopyCheckpoint {
  return JSON.parse(JSON.stringify(c)) as CopyCheckpoint;
}
