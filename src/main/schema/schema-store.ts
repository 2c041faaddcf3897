import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { SchemaReport, SchemaScanSummary } from '../../shared/ipc/schema';
import {
  type DataFileKind,
  readDataFile,
  recordingSetAside,
  stringInSetAside,
  stringsNamed,
} from '../core/data-files';
import type { SchemaCheckpoint } from './analyze';
import { type JobKindSpec, jobStore, type JobStore, type JobView } from '../jobs/job-store';
import type { CoreContext, ServiceSlot } from '../core/context';

const ID = /^[A-Za-z0-9_-]{6,80}$/;
/** Reads kept per data folder; older summaries, reports and checkpoints are removed. */
const KEPT = 100;

type Kind = 'summary' | 'report' | 'checkpoint';
/** The side files of a read beside its checkpoint record; the checkpoint is the record itself. */
const SUFFIX: Record<Kind, string> = {
  summary: '.summary.json',
  report: '.report.json',
  checkpoint: '.json',
};
const WHAT: Record<Kind, string> = {
  summary: 'The record of schema read',
  report: 'The report of schema read',
  checkpoint: 'The checkpoint of schema read',
};
/** Only tells a file from garbage: a later release may add fields, and older files still read. */
const SHAPE = z.object({ scanId: z.string(), table: z.string() });

function schemaFile<T>(id: string, kind: Kind): DataFileKind<T> {
  return {
    what: `${WHAT[kind]} ${id}`,
    parse: (json) => {
      SHAPE.parse(json);
      return json as T;
    },
    held: heldTable,
    instead: INSTEAD,
  };
}

const INSTEAD = `That read is listed as failed; read the table again. Other reads are not affected.`;

function heldTable(text: string): string | undefined {
  const [table] = stringsNamed(text, 'table');
  return table === undefined ? undefined : `a read of ${table}`;
}

export const schemaJob: JobKindSpec<SchemaCheckpoint> = {
  kind: 'schema',
  ids: ID,
  badId: (id) => `${id} is not a schema scan id.`,
  payload: SHAPE.extend({ startedAt: z.string(), segments: z.array(z.unknown()) }),
  // A checkpoint is written only while its read runs; runningJobs() tells a live one from a cut-off one.
  envelopeOf: (c) => ({ id: c.scanId, state: 'running', startedAt: c.startedAt }),
  what: (id) => `${WHAT.checkpoint} ${id}`,
  held: heldTable,
  instead: INSTEAD,
  legacy: { checkpoint: '.checkpoint.json', sides: [SUFFIX.summary, SUFFIX.report] },
};

/** Schema reads: a typed view of the job store (<data>/jobs/schema/): summary, report, a stopped full scan's checkpoint. */
export class SchemaStore {
  private readonly jobs: JobView<SchemaCheckpoint>;

  constructor(jobs: JobStore) {
    this.jobs = jobs.view(schemaJob);
  }

  save(id: string, kind: Kind, value: unknown): Promise<void> {
    return kind === 'checkpoint'
      ? this.jobs.write(value as SchemaCheckpoint)
      : this.jobs.writeSide(id, SUFFIX[kind], value);
  }
  async summary(id: string): Promise<SchemaScanSummary> {
    return found(
      await this.jobs.readSide(id, SUFFIX.summary, schemaFile<SchemaScanSummary>(id, 'summary')),
      `schema scan ${id}`,
    );
  }
  async report(id: string): Promise<SchemaReport> {
    return found(
      await this.jobs.readSide(id, SUFFIX.report, schemaFile<SchemaReport>(id, 'report')),
      `report for schema scan ${id}`,
    );
  }
  checkpoint(id: string): Promise<SchemaCheckpoint> {
    return this.jobs.load(id, `There is no checkpoint for schema scan ${id}.`);
  }
  async drop(id: string, kind: Kind): Promise<void> {
    if (kind === 'checkpoint') await this.jobs.forget(id);
    else await rm(await this.jobs.file(id, SUFFIX[kind]), { force: true });
  }

  /** `where`: the list asking, under whose table a read that names none is kept. */
  async list(where?: { connectionId: string; table: string }): Promise<SchemaScanSummary[]> {
    const ids = await this.jobs.idsWith(SUFFIX.summary);
    for (const old of ids.slice(KEPT)) await this.jobs.forget(old, [SUFFIX.summary, SUFFIX.report]);
    const all = await Promise.all(ids.slice(0, KEPT).map((id) => this.listed(id, where)));
    return all.filter((s): s is SchemaScanSummary => s !== undefined);
  }

  /**
   * A summary that cannot be read is set aside, and a failed read whose error is the sentence
   * takes its place, under the connection and table named in what is left of it (else `where`).
   */
  private async listed(
    id: string,
    where?: { connectionId: string; table: string },
  ): Promise<SchemaScanSummary | undefined> {
    const read = await readDataFile(
      await this.jobs.file(id, SUFFIX.summary),
      schemaFile<SchemaScanSummary>(id, 'summary'),
    );
    if (read.state !== 'setAside') return read.state === 'read' ? read.value : undefined;
    const named = (name: string) => stringInSetAside(read.notice, name);
    const table = (await named('table')) ?? where?.table ?? '';
    const index = await named('index');
    const failed: SchemaScanSummary = {
      scanId: id,
      connectionId: (await named('connectionId')) ?? where?.connectionId ?? '',
      table,
      ...(index === undefined ? {} : { index }),
      mode: 'full',
      state: 'failed',
      startedAt: new Date().toISOString(),
      itemsScanned: 0,
      error: read.notice.message,
    };
    await this.save(id, 'summary', failed);
    return failed;
  }
}

/** An unreadable file was set aside and failed with its sentence (DataFileSetAside); a missing one is NotFound. */
function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new AppFailure(ErrorCodes.notFound, `There is no ${what}.`);
  return value;
}

/**
 * A read whose report or checkpoint was set aside as unreadable is failed from then on, with the
 * sentence as its error, so the list says what happened after this answer is gone.
 */
export function noticed<T>(store: SchemaStore, summary: SchemaScanSummary, work: Promise<T>): Promise<T> {
  return recordingSetAside(work, ({ message }) =>
    store.save(summary.scanId, 'summary', { ...summary, state: 'failed', error: message }),
  );
}

/** The Schema view's reads on disk: summaries, reports, a stopped full read's checkpoint. */
const schemaStoreSlot: ServiceSlot<SchemaStore> = {
  name: 'schemaStore',
  create: (ctx) => new SchemaStore(jobStore(ctx)),
  isUsableWhenClosed: true,
};

export function schemaStore(ctx: CoreContext): SchemaStore {
  return ctx.services.get(schemaStoreSlot);
}
