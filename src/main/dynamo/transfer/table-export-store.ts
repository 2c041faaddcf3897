import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { TableExportSummary, TransferFormat } from '../../../shared/ipc/transfer';
import { stringsNamed } from '../../core/data-files';
import { type JobKindSpec, JobStore, type JobView } from '../../jobs/job-store';
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

/** The spool's suffix: one `{"Item":…}` line per item read so far. */
const SPOOL = '.jsonl';
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

export const exportJob: JobKindSpec<TableExportCheckpoint> = {
  kind: 'export',
  ids: ID,
  badId: (id) => `There is no table export with the id ${JSON.stringify(id)}.`,
  payload: checkpointShape,
  envelopeOf: (c) => ({ id: c.exportId, state: c.state, startedAt: c.startedAt }),
  what: (exportId) => `The place of table export ${exportId}`,
  held: (text) => {
    const [table] = stringsNamed(text, 'table');
    return table === undefined ? undefined : `an export of ${table}`;
  },
  instead: 'That export can no longer be resumed; start it again. Other exports are not affected.',
  legacy: { checkpoint: '.json', sides: [SPOOL] },
};

export function newTableExportId(): string {
  return `texp-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The whole-table exports' checkpoints and spools: a typed view of the job store (<data>/jobs/export/). */
export class TableExportStore {
  private readonly jobs: JobView<TableExportCheckpoint>;

  /** `jobs`: the core's job store; a data folder builds one of its own (the CLI). */
  constructor(jobs: JobStore | string) {
    this.jobs = (typeof jobs === 'string' ? new JobStore(jobs) : jobs).view(exportJob);
  }

  spool(exportId: string): Promise<string> {
    return this.jobs.file(exportId, SPOOL);
  }

  save(checkpoint: TableExportCheckpoint): Promise<void> {
    return this.jobs.write({ ...checkpoint, savedAt: new Date().toISOString() });
  }

  load(exportId: string): Promise<TableExportCheckpoint> {
    return this.jobs.load(
      exportId,
      `There is no stopped export ${exportId} on this machine: it completed, or it was forgotten.`,
    );
  }

  /** Forgets an export: its place and its spool go. */
  remove(exportId: string): Promise<boolean> {
    return this.jobs.forget(exportId, [SPOOL]);
  }

  /**
   * The exports of one table that have not completed, newest first. One left `running` by a
   * process that ended is listed as stopped: only `isLive` exports run now. A checkpoint that
   * cannot be read is set aside by the job store and left out.
   */
  async list(
    connectionId: string,
    table: string,
    isLive: (exportId: string) => boolean,
  ): Promise<TableExportSummary[]> {
    const { records } = await this.jobs.list();
    return records
      .filter((c) => c.connectionId === connectionId && c.table === table)
      .map((c): TableExportSummary => ({
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
      }))
      .sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }
}
