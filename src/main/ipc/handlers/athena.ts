import { prepareAthena } from '../../athena/athena-plan';
import { prepareAthenaRun, runOnAthena } from '../../athena/athena-run';
import {
  loadAthenaSettings,
  rememberAthenaSettings,
  saveScanLimits,
  scanLimitOf,
} from '../../sql/sql-settings';
import type { Handler } from '../dispatcher';

type AthenaChannel = 'athena:plan' | 'athena:run' | 'athena:settings' | 'athena:saveSettings';

/**
 * The plan's local-vs-Athena choice and the Athena path (src/main/athena). athena:run checks
 * the translation and the export before it starts, so a refusal starts nothing.
 */
export const athenaHandlers: { [C in AthenaChannel]: Handler<C> } = {
  'athena:plan': async (input, ctx) => {
    const limits = input.limits ?? (await scanLimitOf(ctx.dataDir, input.connectionId));
    return (await prepareAthena(ctx, { ...input, limits }, new AbortController().signal)).plan;
  },
  'athena:run': async (input, ctx) => {
    const prepared = await prepareAthenaRun(ctx, input, new AbortController().signal);
    await rememberAthenaSettings(ctx.dataDir, input.connectionId, input.settings);
    ctx.operations.start(input.requestId, (run) => runOnAthena(ctx, input, prepared, run));
    return { started: true };
  },
  'athena:settings': ({ connectionId }, ctx) => loadAthenaSettings(ctx.dataDir, connectionId),
  'athena:saveSettings': async ({ connectionId, limits }, ctx) =>
    limits === undefined
      ? loadAthenaSettings(ctx.dataDir, connectionId)
      : saveScanLimits(ctx.dataDir, connectionId, limits),
};
