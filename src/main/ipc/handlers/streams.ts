import { streamsClientFor } from '../../aws/streams-client';
import { withDeadline } from '../../dynamo/deadline';
import { tailStream } from '../../dynamo/streams/stream-tail';
import { tableDetails } from '../../dynamo/table-metadata';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { HandlerTable } from '../dispatcher';

/** streams:tail — a live tail of a table's stream as an operation; cancelling it releases the client. */
export const streamHandlers: Pick<HandlerTable, 'streams:tail'> = {
  'streams:tail': async ({ connectionId, table, requestId, from }, ctx) => {
    const client = await ctx.clients.dynamo(connectionId);
    const { summary } = await withDeadline(30_000, `describing ${table}`, (signal) =>
      tableDetails(client, table, signal),
    );
    const { arn, viewType } = summary.stream;
    if (!summary.stream.enabled || !arn)
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `${table} has no stream. Turn streams on (Change → Streams) to follow its changes here.`,
      );
    const streams = streamsClientFor(client);
    ctx.operations.start(requestId, async (run) => {
      try {
        return await tailStream(streams, { streamArn: arn, from }, run);
      } finally {
        streams.destroy();
      }
    });
    return { started: true, streamArn: arn, viewType: viewType ?? 'KEYS_ONLY' };
  },
};
