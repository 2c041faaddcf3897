import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { dataFolder } from '../../files/data-folder';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { TableExportSummary, TransferFormat } from '../../../shared/ipc/transfer';
import { isMissingFile, writeFileAtomic } from '../../files/atomic-file';
import { type DataFileKind, readDataFile, setAsideFailure, stringsNamed } from '../../core/data-files';
import type { SegmentCursor } from '../read/segmented-read';

/**
 * What a whole-table export keeps between runs: its settings, each segment's place and how many
 * bytes of the spool (`<id>.jsonl`, one `{"Item":…}` line per item) those places account for.
 * A page is appended to the spool first, then its segment moves here; a resume cuts the spool
 * back to `spoolBytes`, so a page written but not yet recorded is read again, never twice.
 */
export interface TableExportCheckpoint {
  version: 1;
  exportId: string;
  connectionId: string;
  table: string;
  index?: string;
  format: TransferFormat;
  /** The file the export becomes when complete (checked when it started). */
  path: string;
  totalSegments: number;
  segments: SegmentCursor[];
  spoolBytes: number;
  items: number;
  consumedCapacity: number;
  sourceCount: number;
  state: 'running' | 'stopped';
  startedAt: string;
  savedAt: string;
}

const ID = /^texp-[A-Za-z0-9_-]{6,58}$/;
const count = z.number().int().nonnegative();
const cursor = z.object({ segment: count, done: z.boolean(), startKey: z.unknown().optional() });

/** Checked, never rebuilt from: the file's own objects are used, so a start key's names stay as written. */
const checkpointShape = z.object({
  version: z.literal(1),
  exportId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  index: z.string().optional(),
  format: z.enum(['dynamodb-json', 'jsonl', 'csv']),
  path: z.string(),
  totalSegments: z.number().int().min(1),
  segments: z.array(cursor).min(1),
  spoolBytes: count,
  items: count,
  consumedCapacity: z.number().nonnegative(),
  sourceCount: z.number().nonnegative(),
  state: z.enum(['running', 'stopped']),
  savedAt: z.string(),
});

function checkpointFile(exportId: string): DataFileKind<TableExportCheckpoint> {
  return {
    what: `The place of table export ${exportId}`,
    parse: (json) => {
      checkpointShape.parse(json);
      return json as TableExportCheckpoint;
    },
    held: (text) => {
      const [table] = stringsNamed(text, 'table');
      return table === undefined ? undefined : `an export of ${table}`;
    },
    instead: 'That export can no longer be resumed; start it again. Other exports are not affected.',
  };
}

export function newTableExportId(): string {
  return `texp-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** One checkpoint and one spool per whole-table export, under <dataDir>/table-exports. */
export class TableExportStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = dataFolder.legacyJobs.export(dataDir);
  }

  private checked(exportId: string): string {
    if (!ID.test(exportId))
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `There is no table export with the id ${JSON.stringify(exportId)}.`,
      );
    return exportId;
  }

  private file(exportId: string): string {
    return join(this.dir, `${this.checked(exportId)}.json`);
  }

  spool(exportId: string): string {
    return join(this.dir, `${this.checked(exportId)}.jsonl`);
  }

  save(checkpoint: TableExportCheckpoint): Promise<void> {
    return writeFileAtomic(
      this.file(checkpoint.exportId),
      JSON.stringify({ ...checkpoint, savedAt: new Date().toISOString() }),
    );
  }

  async load(exportId: string): Promise<TableExportCheckpoint> {
    const read = await readDataFile(this.file(exportId), checkpointFile(exportId));
    if (read.state === 'setAside') throw setAsideFailure(read.notice);
    if (read.state === 'missing')
      throw new AppFailure(
        ErrorCodes.notFound,
        `There is no stopped export ${exportId} on this machine: it completed, or it was forgotten.`,
      );
    return read.value;
  }

  /** Forgets an export: its place and its spool go. */
  async remove(exportId: string): Promise<boolean> {
    await rm(this.spool(exportId), { force: true });
    try {
      await rm(this.file(exportId));
      return true;
    } catch (error) {
      if (isMissingFile(error)) return false;
      throw error;
    }
  }

  /**
   * The exports of one table that have not completed, newest first. One left `running` by a
   * process that ended is listed as stopped: only `isLive` exports run now. A checkpoint that
   * cannot be read is set aside by readDataFile and left out.
   */
  async list(
    connectionId: string,
    table: string,
    isLive: (exportId: string) => boolean,
  ): Promise<TableExportSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const found: TableExportSummary[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
      if (!id || !ID.test(id)) continue;
      const read = await readDataFile(this.file(id), checkpointFile(id));
      if (read.state !== 'read') continue;
      const c = read.value;
      if (c.connectionId !== connectionId || c.table !== table) continue;
      found.push({
        exportId: c.exportId,
        connectionId: c.connectionId,
        table: c.table,
        ...(c.index === undefined ? {} : { index: c.index }),
        format: c.format,
        path: c.path,
        items: c.items,
        consumedCapacity: c.consumedCapacity,
        sourceCount: c.sourceCount,
        savedAt: c.savedAt,
        state: isLive(c.exportId) ? 'running' : 'stopped',
      });
    }
    return found.sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }
}
