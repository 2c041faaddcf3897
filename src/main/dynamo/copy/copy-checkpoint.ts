import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { dataFolder } from '../../files/data-folder';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopyCheckpointSummary, CopyList, CopyStartInput } from '../../../shared/ipc/copy';
import type { SetAsideNotice } from '../../../shared/ipc/data-files';
import type { KeySchema } from '../../../shared/ipc/tables';
import { isMissingFile, writeFileAtomic } from '../../files/atomic-file';
import { type DataFileKind, readDataFile, setAsideFailure, stringsNamed } from '../../core/data-files';
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

function checkpointFile(copyId: string): DataFileKind<CopyCheckpoint> {
  return {
    what: `The checkpoint of copy ${copyId}`,
    parse: (json) => {
      checkpointShape.parse(json);
      return json as CopyCheckpoint;
    },
    held: (text) => {
      const [from, to] = stringsNamed(text, 'table');
      if (from === undefined) return undefined;
      return `a copy from ${from}${to === undefined ? '' : ` to ${to}`}`;
    },
    instead:
      'That copy can no longer be resumed; what it wrote stays in the target. Other copies are not affected.',
  };
}

export function newCopyId(): string {
  return `copy-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** One JSON file per copy under <dataDir>/copies, written atomically. */
export class CopyStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = dataFolder.legacyJobs.copy(dataDir);
  }

  private file(copyId: string): string {
    if (!ID.test(copyId)) throw new AppFailure(ErrorCodes.invalidInput, `${copyId} is not a copy id.`);
    return join(this.dir, `${copyId}.json`);
  }

  save(checkpoint: CopyCheckpoint): Promise<void> {
    return writeFileAtomic(
      this.file(checkpoint.copyId),
      JSON.stringify({ ...checkpoint, savedAt: new Date().toISOString() }),
    );
  }

  async load(copyId: string): Promise<CopyCheckpoint> {
    const read = await readDataFile(this.file(copyId), checkpointFile(copyId));
    if (read.state === 'setAside') throw setAsideFailure(read.notice);
    if (read.state === 'missing')
      throw new AppFailure(ErrorCodes.notFound, `There is no copy ${copyId} to resume on this machine.`);
    return read.value;
  }

  /** Forgets a copy: its checkpoint file goes; what it wrote stays in the target. */
  async remove(copyId: string): Promise<boolean> {
    try {
      await rm(this.file(copyId));
      return true;
    } catch (error) {
      if (isMissingFile(error)) return false;
      throw error;
    }
  }

  /**
   * A checkpoint left `running` by a process that ended (a crash, a quit, Ctrl+C past the save)
   * is listed as stopped: only `isLive` copies are running now. A checkpoint that cannot be read
   * is set aside and named in `setAside`; the others are listed as ever.
   */
  async list(isLive: (copyId: string) => boolean = () => false): Promise<CopyList> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissingFile(error)) return { copies: [] };
      throw error;
    }
    const summaries: CopyCheckpointSummary[] = [];
    const setAside: SetAsideNotice[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const copyId = name.slice(0, -'.json'.length);
      // A name no copy can have was not written by DynoTable: not ours to read or move.
      if (!ID.test(copyId)) continue;
      const read = await readDataFile(this.file(copyId), checkpointFile(copyId));
      if (read.state === 'setAside') setAside.push(read.notice);
      if (read.state === 'read') {
        const c = read.value;
        summaries.push({
          copyId: c.copyId,
          source: { connectionId: c.input.source.connectionId, table: c.input.source.table },
          target: { connectionId: c.input.target.connectionId, table: c.input.target.table },
          state: c.state === 'running' && !isLive(c.copyId) ? 'stopped' : c.state,
          itemsRead: c.counts.read,
          itemsWritten: c.counts.written,
          savedAt: c.savedAt,
        });
      }
    }
    const copies = summaries.sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1)).slice(0, MAX_LISTED);
    return setAside.length > 0 ? { copies, setAside } : { copies };
  }
}

/** A deep copy, so a save in progress never sees a page half-applied. */
export function snapshotOf(c: CopyCheckpoint): CopyCheckpoint {
  return JSON.parse(JSON.stringify(c)) as CopyCheckpoint;
}
