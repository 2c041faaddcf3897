import { prepareAthena } from '../../athena/athena-plan';
import { prepareAthenaRun, runOnAthena } from '../../athena/athena-run';
import type { Handler } from '../dispatcher';

type AthenaChannel = 'athena:plan' | 'athena:run';

/**
 * The plan's local-vs-Athena choice and the Athena path (src/main/athena). athena:run checks
 * the translation and the export before it starts, so a refusal starts nothing.
 */
export const athenaHandlers: { [C in AthenaChannel]: Handler<C> } = {
  'athena:plan': async (input, ctx) => (await prepareAthena(ctx, input, new AbortController().signal)).plan,
  'athena:run': async (input, ctx) => {
    const prepared = await prepareAthenaRun(ctx, input, new AbortController().signal);
    ctx.operations.start(input.requestId, (run) => runOnAthena(ctx, input, prepared, run));
    return { started: true };
  },
};
