import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { resolveTarget } from '../../dynamo/items/item-access';
import { runExportToFile } from '../../dynamo/transfer/export-file';
import { uploadedFile } from '../../dynamo/transfer/import-upload';
import { checkExportPath, checkImportPath } from '../../dynamo/transfer/transfer-paths';
import { runImport } from '../../dynamo/transfer/import-run';
import { assertConfirmed, assertWritable } from '../../dynamo/writes/guards';
import type { Handler } from '../dispatcher';

/** transfer:* — checks in main (path, read-only, typed confirmation) before the operation starts. */
export const transferHandlers: {
  'files:choose': Handler<'files:choose'>;
  'transfer:export': Handler<'transfer:export'>;
  'transfer:import': Handler<'transfer:import'>;
} = {
  'files:choose': (input, ctx) => ctx.files.choose(input),
  'transfer:export': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const chosen = input.fileId === undefined ? input.path : ctx.files.pathOf(input.fileId, 'export');
    if (chosen === undefined || (input.fileId !== undefined && input.path !== undefined))
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'Say where to export: choose a file (fileId), or give a path.',
      );
    // The save dialog already asked before replacing a file the user picked.
    const overwrite = input.fileId === undefined ? input.overwrite : true;
    const target = await checkExportPath({ path: chosen, overwrite }, scope);
    const { total } = await ctx.resultSets.window(input.resultSetId, 0, 0);
    const count = input.rows ? input.rows.length : total;
    ctx.operations.start(input.requestId, (run) =>
      runExportToFile(ctx.resultSets, { ...input, path: target, overwrite }, count, run, scope),
    );
    return { started: true };
  },
  'transfer:import': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const source =
      'fileId' in input.source
        ? { path: ctx.files.pathOf(input.source.fileId, 'import') }
        : 'path' in input.source
          ? { path: await checkImportPath(input.source.path, scope) }
          : 'uploadId' in input.source
            ? { path: await uploadedFile(ctx.dataDir, input.source.uploadId) }
            : input.source;
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'import');
    if (!input.dryRun) {
      assertWritable(target.connection);
      assertConfirmed(target.connection, target.info.name, 'import', 0, input.confirmTable);
    }
    ctx.operations.start(input.requestId, (run) => runImport(target, { ...input, source }, run));
    return { started: true };
  },
};
