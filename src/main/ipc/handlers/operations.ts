import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { decodeCursor } from '../../dynamo/cursor';
import { withDeadline } from '../../dynamo/deadline';
import { DEFAULT_MAX_ITEMS, DEFAULT_PAGE_SIZE, runScan, scanTarget } from '../../dynamo/scan';
import type { HandlerTable } from '../dispatcher';

type OperationChannel = 'scan:start' | 'ops:cancel';

export const operationHandlers: Pick<HandlerTable, OperationChannel> = {
  /**
   * Validates, prepares the result set and starts the scan as an operation; answers with the
   * result set's id at once. Pages, progress and the one final event arrive as operation events.
   */
  'scan:start': async (input, ctx) => {
    const { connectionId, table, index, requestId } = input;
    if (ctx.operations.isRunning(requestId)) {
      throw new AppFailure(ErrorCodes.invalidInput, `Request ${requestId} is already running.`);
    }
    const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor, { table, index });
    const client = await ctx.clients.dynamo(connectionId);
    const target = await withDeadline(30_000, `looking up ${table}`, (signal) =>
      scanTarget(client, table, index, signal),
    );
    let resultSetId = input.resultSetId;
    if (resultSetId === undefined) {
      resultSetId = await ctx.resultSets.create({ connectionId, table, keyAttributes: target.keyAttributes });
    } else {
      // "Load more" appends to a set the renderer already shows; fail now if it is gone.
      await ctx.resultSets.window(resultSetId, 0, 0);
    }
    const request = {
      target,
      resultSetId,
      pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
      maxItems: input.maxItems ?? DEFAULT_MAX_ITEMS,
      cursor,
    };
    ctx.operations.start(requestId, (run) => runScan(client, ctx.resultSets, request, run));
    return { resultSetId };
  },
  'ops:cancel': ({ requestId }, ctx) => Promise.resolve({ cancelled: ctx.operations.cancel(requestId) }),
};
