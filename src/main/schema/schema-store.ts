import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { dataFolder } from '../files/data-folder';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { SchemaReport, SchemaScanSummary } from '../../shared/ipc/schema';
import { writeFileAtomic } from '../files/atomic-file';
import {
  type DataFileKind,
  readDataFile,
  readDataFileOrFail,
  recordingSetAside,
  stringInSetAside,
  stringsNamed,
  summaryIdsNewestFirst,
} from '../core/data-files';
import type { SchemaCheckpoint } from './analyze';
import type { CoreContext, ServiceSlot } from '../core/context';

const ID = /^[A-Za-z0-9_-]{6,80}$/;
/** Reads kept per data folder; older summaries, reports and checkpoints are removed. */
const KEPT = 100;

type Kind = 'summary' | 'report' | 'checkpoint';
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
    held: (text) => {
      const [table] = stringsNamed(text, 'table');
      return table === undefined ? undefined : `a read of ${table}`;
    },
    instead: `That read is listed as failed; read the table again. Other reads are not affected.`,
  };
}

/** Schema reads under <dataDir>/schema: summary, report, and a stopped full scan's checkpoint. */
export class SchemaStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = dataFolder.legacyJobs.schema(dataDir);
  }

  private file(id: string, kind: string): string {
    if (!ID.test(id)) throw new AppFailure(ErrorCodes.invalidInput, `${id} is not a schema scan id.`);
    return join(this.dir, `${id}.${kind}.json`);
  }

  /** An unreadable file is set aside and fails with its sentence (DataFileSetAside); a missing one is NotFound. */
  private async read<T>(id: string, kind: Kind, what: string): Promise<T> {
    const value = await readDataFileOrFail(this.file(id, kind), schemaFile<T>(id, kind));
    if (value === undefined) throw new AppFailure(ErrorCodes.notFound, `There is no ${what}.`);
    return value;
  }

  save(id: string, kind: Kind, value: unknown): Promise<void> {
    return writeFileAtomic(this.file(id, kind), JSON.stringify(value));
  }
  summary(id: string): Promise<SchemaScanSummary> {
    return this.read(id, 'summary', `schema scan ${id}`);
  }
  report(id: string): Promise<SchemaReport> {
    return this.read(id, 'report', `report for schema scan ${id}`);
  }
  checkpoint(id: string): Promise<SchemaCheckpoint> {
    return this.read(id, 'checkpoint', `checkpoint for schema scan ${id}`);
  }
  async drop(id: string, kind: string): Promise<void> {
    await rm(this.file(id, kind), { force: true });
  }

  /** `where`: the list asking, under whose table a read that names none is kept. */
  async list(where?: { connectionId: string; table: string }): Promise<SchemaScanSummary[]> {
    const ids = await summaryIdsNewestFirst(this.dir);
    for (const old of ids.slice(KEPT))
      for (const kind of ['summary', 'report', 'checkpoint']) await this.drop(old, kind);
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
    const read = await readDataFile(this.file(id, 'summary'), schemaFile<SchemaScanSummary>(id, 'summary'));
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
  create: (ctx) => new SchemaStore(ctx.dataDir),
  isUsableWhenClosed: true,
};

export function schemaStore(ctx: CoreContext): SchemaStore {
  return ctx.services.get(schemaStoreSlot);
}
