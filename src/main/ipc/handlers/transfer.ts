import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { resumeImport, startImportAsJob } from '../../dynamo/transfer/import-job';
import { resolveTarget } from '../../dynamo/items/item-access';
import { runExportToFile } from '../../export-rows/export-file';
import { rowsSourceOf } from '../../export-rows/rows-source';
import { uploadedFile } from '../../dynamo/transfer/import-upload';
import { checkExportPath, checkImportPath } from '../../dynamo/transfer/transfer-paths';
import { runImport } from '../../dynamo/transfer/import-run';
import { assertConfirmed, assertWritable } from '../../dynamo/writes/guards';
import {
  forgetTableExport,
  listTableExports,
  resumeTableExport,
  startTableExport,
} from '../../dynamo/transfer/table-export-service';
import type { CoreContext } from '../../core/context';
import type { Handler } from '../dispatcher';

/** Where an export goes: the file chosen in the save dialog, or a path (checked for browser mode's folder). */
async function exportTarget(
  input: { fileId?: string | undefined; path?: string | undefined; overwrite?: boolean | undefined },
  ctx: CoreContext,
): Promise<{ target: string; overwrite: boolean | undefined }> {
  const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
  const chosen = input.fileId === undefined ? input.path : ctx.files.pathOf(input.fileId, 'export');
  if (chosen === undefined || (input.fileId !== undefined && input.path !== undefined))
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'Say where to export: choose a file (fileId), or give a path.',
    );
  // The save dialog already asked before replacing a file the user picked.
  const overwrite = input.fileId === undefined ? input.overwrite : true;
  return { target: await checkExportPath({ path: chosen, overwrite }, scope), overwrite };
}

/** transfer:* — checks in main (path, read-only, typed confirmation) before the operation starts. */
export const transferHandlers: {
  'files:choose': Handler<'files:choose'>;
  'transfer:export': Handler<'transfer:export'>;
  'transfer:exportTable': Handler<'transfer:exportTable'>;
  'transfer:resumeTableExport': Handler<'transfer:resumeTableExport'>;
  'transfer:tableExports': Handler<'transfer:tableExports'>;
  'transfer:forgetTableExport': Handler<'transfer:forgetTableExport'>;
  'transfer:import': Handler<'transfer:import'>;
  'transfer:resumeImport': Handler<'transfer:resumeImport'>;
} = {
  'files:choose': (input, ctx) => ctx.files.choose(input),
  'transfer:export': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const { target, overwrite } = await exportTarget(input, ctx);
    const source = await rowsSourceOf(ctx, input);
    ctx.operations.start(input.requestId, (run) =>
      runExportToFile(source, { format: input.format, path: target, overwrite }, run, scope),
    );
    return { started: true };
  },
  'transfer:exportTable': async (input, ctx) => {
    const { target } = await exportTarget(input, ctx);
    return startTableExport(ctx, input, target);
  },
  'transfer:resumeTableExport': (input, ctx) => resumeTableExport(ctx, input.requestId, input.exportId),
  'transfer:tableExports': (input, ctx) => listTableExports(ctx, input.connectionId, input.table),
  'transfer:forgetTableExport': (input, ctx) => forgetTableExport(ctx, input.exportId),
  'transfer:import': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const source =
      'fileId' in input.source
        ? { path: ctx.files.pathOf(input.source.fileId, 'import') }
        : 'path' in input.source
          ? { path: await checkImportPath(input.source.path, scope) }
          : 'uploadId' in input.source
            ? {
                path: await uploadedFile(ctx.dataDir, input.source.uploadId),
                ...(input.source.name !== undefined ? { name: input.source.name } : {}),
              }
            : input.source;
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'import');
    if (!input.dryRun) {
      assertWritable(target.connection);
      assertConfirmed(target.connection, target.info.name, 'import', 0, input.confirmTable);
    }
    if (input.dryRun) {
      ctx.operations.start(input.requestId, (run) => runImport(target, { ...input, source }, run));
      return { started: true };
    }
    // A real import keeps a record in the job store: after a stop or a crash, it resumes.
    await startImportAsJob(ctx, target, input, source);
    return { started: true };
  },
  'transfer:resumeImport': (input, ctx) => resumeImport(ctx, input),
};
