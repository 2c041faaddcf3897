import { assistContext, EXPLAIN_PROMPT, SYSTEM_PROMPT } from '../../agent/sql-assist/context';
import { runSqlAssist } from '../../agent/sql-assist/run';
import type { Handler } from '../dispatcher';

type SqlAssistChannel = 'sql:assist' | 'sql:assistContext';

/** Ask / Fix / Explain in the SQL workbench (src/main/agent/sql-assist): proposals, never runs. */
export const sqlAssistHandlers: { [C in SqlAssistChannel]: Handler<C> } = {
  'sql:assist': (input, ctx) => {
    ctx.operations.start(input.requestId, (run) => runSqlAssist(ctx, input, run));
    return Promise.resolve({ started: true });
  },
  'sql:assistContext': async ({ connectionId, includeSamples }, ctx) => ({
    system: `${SYSTEM_PROMPT}\n\n(Explain uses: ${EXPLAIN_PROMPT})`,
    context: await assistContext(ctx, connectionId, includeSamples, AbortSignal.timeout(60_000)),
  }),
};
