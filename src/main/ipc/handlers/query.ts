import { startRead } from '../../dynamo/query/start-read';
import type { Handler } from '../dispatcher';

/** query:start — the builder's Query/Scan, streamed into a result set as an operation. */
export const queryHandlers: {
  'query:start': Handler<'query:start'>;
  'resultsets:view': Handler<'resultsets:view'>;
  'resultsets:collections': Handler<'resultsets:collections'>;
} = {
  'query:start': (input, ctx) => startRead(ctx, input),
  'resultsets:view': ({ resultSetId, spec, viewId, revision }, ctx) =>
    ctx.resultSets.view(resultSetId, spec, viewId, revision),
  'resultsets:collections': ({ resultSetId, viewId, collapse }, ctx) =>
    ctx.resultSets.collections(resultSetId, viewId, collapse),
};
