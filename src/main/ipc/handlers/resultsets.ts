import type { HandlerTable } from '../dispatcher';

type ResultSetChannel = 'resultsets:window' | 'resultsets:drop';

/** The renderer only ever holds the rows it shows; the result set stays in the worker. */
export const resultSetHandlers: Pick<HandlerTable, ResultSetChannel> = {
  'resultsets:window': ({ resultSetId, offset, limit, viewId, itemsOnly }, ctx) =>
    ctx.resultSets.window(resultSetId, offset, limit, viewId, itemsOnly),
  'resultsets:drop': async ({ resultSetId }, ctx) => ({ dropped: await ctx.resultSets.drop(resultSetId) }),
};
