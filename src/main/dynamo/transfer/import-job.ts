import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { ChannelInput } from '../../../shared/ipc/contract';
import type { importInput } from '../../../shared/ipc/transfer';
import type { CoreContext } from '../../core/context';
import { type ImportRecord, startImportJob, stoppedRecord } from '../../jobs/work-records';
import { type ItemTarget, resolveTarget } from '../items/item-access';
import { assertConfirmed, assertWritable } from '../writes/guards';
import { runImport } from './import-run';
import { fileName, type ImportSource } from './import-source';

type ImportInput = Omit<z.output<typeof importInput>, 'source'>;

/**
 * A real import (not a dry run) as a job of the job store: its record names the file with its
 * size and modification time, and the line reached with the counts so far, so after a cancel, a
 * failure or a crash it resumes after the last line written (resumeImport).
 */
export async function startImportAsJob(
  ctx: CoreContext,
  target: ItemTarget,
  input: ImportInput,
  source: ImportSource,
): Promise<void> {
  const read = 'path' in source ? await stat(source.path) : undefined;
  const fresh = {
    connectionId: input.connectionId,
    table: target.info.name,
    file: fileName(source),
    format: input.format,
    mode: input.mode,
    ...('path' in source && read
      ? { source: { path: source.path, format: input.format, size: read.size, mtimeMs: read.mtimeMs } }
      : {}),
    line: 0,
    written: 0,
    existing: 0,
    problems: 0,
  };
  startImportJob(ctx, input.requestId, fresh, (run, note) =>
    runImport(target, { ...input, source }, run, { note }),
  );
}

/**
 * Goes on with a stopped import after the last line it wrote, with the file, format and mode it
 * started with, under the same record (its counts go on from where they were). The same rules as
 * a new import (read-only, the typed name on production), and the file must be the one it read.
 */
export async function resumeImport(
  ctx: CoreContext,
  input: ChannelInput<'transfer:resumeImport'>,
): Promise<{ started: boolean }> {
  const target = await resolveTarget(ctx, input.connectionId, input.table, 'import');
  assertWritable(target.connection);
  assertConfirmed(target.connection, target.info.name, 'import', 0, input.confirmTable);
  const record = await stoppedRecord(ctx, 'import', input.jobId, {
    connectionId: input.connectionId,
    table: target.info.name,
  });
  const source = await sameFile(record);
  const before = { written: record.written, existing: record.existing, problems: record.problems };
  const resumed: ImportInput = {
    connectionId: input.connectionId,
    table: input.table,
    requestId: input.requestId,
    format: source.format,
    mode: record.mode,
    dryRun: false,
  };
  startImportJob(ctx, input.requestId, record, (run, note) =>
    runImport(target, { ...resumed, source: { path: source.path, name: record.file } }, run, {
      after: record.line,
      note: (now) =>
        note({
          line: now.line,
          written: before.written + now.written,
          existing: before.existing + now.existing,
          problems: before.problems + now.problems,
        }),
    }),
  );
  return { started: true };
}

/** The file the import read, if it is still there and unchanged; else a sentence. */
async function sameFile(record: ImportRecord): Promise<NonNullable<ImportRecord['source']>> {
  const source = record.source;
  if (!source)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The import ${record.id} read pasted text, which DynoTable does not keep: paste it again and import it with "new items only" to add the rest.`,
    );
  const now = await stat(source.path).catch(() => undefined);
  if (!now?.isFile())
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `${record.file} is no longer where the import read it (${source.path}), so the import cannot go on. Choose the file again and import it with "new items only" to add the rest.`,
      false,
      { path: source.path },
    );
  if (now.size !== source.size || now.mtimeMs !== source.mtimeMs)
    throw new AppFailure(
      ErrorCodes.fileChanged,
      `${record.file} changed since the import stopped (it was ${source.size.toLocaleString('en-US')} bytes, it is ${now.size.toLocaleString('en-US')} now, modified ${now.mtime.toISOString()}), so its line ${record.line.toLocaleString('en-US')} may not be where the import stopped. Import the file again from the start with "new items only" instead.`,
      false,
      { path: source.path },
    );
  return source;
}
