import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import type { SchemaReport, SchemaScanSummary } from '../../shared/ipc/schema';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import type { CoreContext } from '../core/context';
import {
  type DataFileKind,
  readDataFile,
  readDataFileOrFail,
  recordingSetAside,
  stringInSetAside,
  stringsNamed,
} from '../core/data-files';
import { toAppError } from '../core/to-app-error';
import { assertNotRunning, withCursor } from '../migration/service';
import { newMigrationId } from '../migration/store';
import { analyzeSchema, reportOfSchemaCheckpoint, type SchemaCheckpoint } from './analyze';

const ID = /^[A-Za-z0-9_-]{6,80}$/;
/** Reads kept per data folder; older summaries, reports and checkpoints are removed. */
const KEPT = 100;
const running = new Set<string>();

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
class SchemaStore {
  constructor(private readonly dir: string) {}

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
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const ids = names
      .filter((n) => n.endsWith('.summary.json'))
      .map((n) => n.slice(0, -'.summary.json'.length))
      .sort()
      .reverse();
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
function noticed<T>(store: SchemaStore, summary: SchemaScanSummary, work: Promise<T>): Promise<T> {
  return recordingSetAside(work, ({ message }) =>
    store.save(summary.scanId, 'summary', { ...summary, state: 'failed', error: message }),
  );
}

const stores = new WeakMap<CoreContext, SchemaStore>();
function schemaStore(ctx: CoreContext): SchemaStore {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = new SchemaStore(join(ctx.dataDir, 'schema'))));
  return store;
}

export async function startSchemaAnalysis(
  input: ChannelInput<'schema:analyze'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'schema:analyze'>> {
  assertNotRunning(ctx, input.requestId);
  const store = schemaStore(ctx);
  const client = await ctx.clients.dynamo(input.connectionId);
  let resume: SchemaCheckpoint | undefined;
  let previous: SchemaScanSummary | undefined;
  if (input.resumeScanId) {
    if (running.has(input.resumeScanId))
      throw new AppFailure(ErrorCodes.invalidInput, 'That scan is still running.');
    previous = await store.summary(input.resumeScanId);
    if (
      previous.connectionId !== input.connectionId ||
      previous.table !== input.table ||
      previous.index !== input.index
    )
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `Scan ${input.resumeScanId} read another table or index.`,
      );
    if (previous.state === 'done')
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'That scan finished; start a new one to read the table again.',
      );
    resume = await noticed(store, previous, store.checkpoint(input.resumeScanId)).catch((error: unknown) => {
      if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
      throw error;
    });
  }
  const scanId = input.resumeScanId ?? newMigrationId('schema');
  const mode = resume?.mode ?? input.mode;
  const summary: SchemaScanSummary = {
    scanId,
    connectionId: input.connectionId,
    table: input.table,
    ...(input.index ? { index: input.index } : {}),
    mode,
    state: 'running',
    requestId: input.requestId,
    startedAt: previous?.startedAt ?? new Date().toISOString(),
    itemsScanned: resume ? (previous?.itemsScanned ?? 0) : 0,
  };
  await store.save(scanId, 'summary', summary);
  running.add(scanId);
  ctx.operations.start(input.requestId, async ({ signal, emit }) => {
    const patch = (next: Partial<SchemaScanSummary>) =>
      store.save(scanId, 'summary', Object.assign(summary, next));
    try {
      const result = await analyzeSchema({
        client,
        table: input.table,
        index: input.index,
        mode,
        scanId,
        signal,
        sampleSize: input.sampleSize,
        segments: input.segments,
        limit: input.limit,
        entities: input.typeAttribute ? { kind: 'attribute', name: input.typeAttribute } : { kind: 'keys' },
        resume,
        onProgress: (progress) => {
          summary.itemsScanned = progress.items;
          emit({ type: 'progress', progress });
        },
        // A sample is a few requests: nothing to resume, so nothing to save on the way.
        onCheckpoint: mode === 'full' ? (c) => store.save(scanId, 'checkpoint', c) : undefined,
      });
      await store.save(scanId, 'report', result.report);
      await store.drop(scanId, 'checkpoint');
      await patch({ state: 'done', itemsScanned: result.report.itemsScanned });
      return {
        progress: {
          items: result.report.itemsScanned,
          pages: result.report.draw.pages,
          consumedCapacity: result.report.draw.consumedReadCapacity,
        },
        value: { scanId },
      };
    } catch (error) {
      const app = toAppError(error);
      await patch(signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: app.message }).catch(
        () => undefined,
      );
      throw withCursor(error, scanId);
    } finally {
      running.delete(scanId);
    }
  });
  return { scanId };
}

/**
 * The newest finished read of a table (not of an index) that the Schema view saved for this
 * connection, if any: what Ask grounds the model in before it samples anything itself.
 */
export async function latestSchemaReport(
  ctx: CoreContext,
  connectionId: string,
  table: string,
): Promise<SchemaReport | undefined> {
  const store = schemaStore(ctx);
  const scans = await store.list({ connectionId, table });
  const done = scans.find(
    (s) =>
      s.connectionId === connectionId && s.table === table && s.index === undefined && s.state === 'done',
  );
  // Ask goes on without it; the Schema view's list then says why the read failed.
  return done ? noticed(store, done, store.report(done.scanId)).catch(() => undefined) : undefined;
}

export async function loadSchemaReport(scanId: string, ctx: CoreContext): Promise<SchemaReport> {
  const store = schemaStore(ctx);
  const summary = await store.summary(scanId);
  if (summary.state === 'done') return noticed(store, summary, store.report(scanId));
  const checkpoint = await noticed(store, summary, store.checkpoint(scanId)).catch((error: unknown) => {
    if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return undefined;
    throw error;
  });
  if (!checkpoint)
    throw new AppFailure(
      ErrorCodes.notFound,
      'This read has no results yet; wait for its first checkpoint (a few seconds).',
    );
  return reportOfSchemaCheckpoint(checkpoint, new Date().toISOString());
}

export async function listSchemaScans(
  input: ChannelInput<'schema:scans'>,
  ctx: CoreContext,
): Promise<SchemaScanSummary[]> {
  const all = await schemaStore(ctx).list(input);
  return all
    .filter(
      (s) => s.connectionId === input.connectionId && s.table === input.table && s.index === input.index,
    )
    .map((s) =>
      s.state === 'running' && !running.has(s.scanId)
        ? {
            ...s,
            state: 'failed' as const,
            error: 'Interrupted: DynoTable closed during the scan. Resume it.',
          }
        : s,
    );
}
