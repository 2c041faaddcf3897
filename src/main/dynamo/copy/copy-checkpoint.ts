import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopyCheckpointSummary, CopyStartInput } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { isMissingFile, writeFileAtomic } from '../../aws/atomic-file';
import type { SegmentCursor } from '../../migration/segmented-scan';
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

export function newCopyId(): string {
  return `copy-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** One JSON file per copy under <dataDir>/copies, written atomically. */
export class CopyStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'copies');
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
    try {
      return JSON.parse(await readFile(this.file(copyId), 'utf8')) as CopyCheckpoint;
    } catch (error) {
      if (isMissingFile(error))
        throw new AppFailure(ErrorCodes.notFound, `There is no copy ${copyId} to resume on this machine.`);
      throw error;
    }
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
   * is listed as stopped: only `isLive` copies are running now.
   */
  async list(isLive: (copyId: string) => boolean = () => false): Promise<CopyCheckpointSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const summaries: CopyCheckpointSummary[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        const c = await this.load(name.slice(0, -'.json'.length));
        summaries.push({
          copyId: c.copyId,
          source: { connectionId: c.input.source.connectionId, table: c.input.source.table },
          target: { connectionId: c.input.target.connectionId, table: c.input.target.table },
          state: c.state === 'running' && !isLive(c.copyId) ? 'stopped' : c.state,
          itemsRead: c.counts.read,
          itemsWritten: c.counts.written,
          savedAt: c.savedAt,
        });
      } catch {
        // a half-written or foreign file is not a copy; listing goes on
      }
    }
    return summaries.sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1)).slice(0, MAX_LISTED);
  }
}

/** A deep copy, so a save in progress never sees a page half-applied. */
export function snapshotOf(c: CopyCheckpoint): CopyCheckpoint {
  return JSON.parse(JSON.stringify(c)) as CopyCheckpoint;
}
