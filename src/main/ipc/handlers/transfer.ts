import { resolveTarget } from '../../dynamo/items/item-access';
import { runExportToFile } from '../../dynamo/transfer/export-file';
import { uploadedFile } from '../../dynamo/transfer/import-upload';
import { checkExportPath, checkImportPath } from '../../dynamo/transfer/transfer-paths';
import { runImport } from '../../dynamo/transfer/import-run';
import { assertConfirmed, assertWritable } from '../../dynamo/writes/guards';
import type { Handler } from '../dispatcher';

/** transfer:* — checks in main (path, read-only, typed confirmation) before the operation starts. */
export const transferHandlers: {
  'transfer:export': Handler<'transfer:export'>;
  'transfer:import': Handler<'transfer:import'>;
} = {
  'transfer:export': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const target = await checkExportPath(input, scope);
    const { total } = await ctx.resultSets.window(input.resultSetId, 0, 0);
    const count = input.rows ? input.rows.length : total;
    ctx.operations.start(input.requestId, (run) =>
      runExportToFile(ctx.resultSets, { ...input, path: target }, count, run, scope),
    );
    return { started: true };
  },
  'transfer:import': async (input, ctx) => {
    const scope = { mode: ctx.mode, dataDir: ctx.dataDir };
    const source =
      'path' in input.source
        ? { path: await checkImportPath(input.source.path, scope) }
        : 'uploadId' in input.source
          ? { path: await uploadedFile(ctx.dataDir, input.source.uploadId) }
          : input.source;
    const target = await resolveTarget(ctx, input.connectionId, input.table);
    if (!input.dryRun) {
      assertWritable(target.connection);
      assertConfirmed(target.connection, target.info.name, 'import', 0, input.confirmTable);
    }
    ctx.operations.start(input.requestId, (run) => runImport(target, { ...input, source }, run));
    return { started: true };
  },
};
