import { z } from 'zod';
import { requestIdSchema } from './operations';
import { tableRefInput } from './tables';

/**
 * A live tail of a table's DynamoDB stream, as an operation under `requestId`: `stream` events
 * carry new records as they arrive; `ops:cancel` stops it and releases every shard iterator.
 * Main keeps no records: the buffer (and its bound) is the renderer's.
 */
export const streamChannels = {
  'streams:tail': {
    input: tableRefInput.extend({
      requestId: requestIdSchema,
      /** LATEST: records from now on; TRIM_HORIZON: every record still kept (24 hours on AWS). */
      from: z.enum(['LATEST', 'TRIM_HORIZON']).default('LATEST'),
    }),
    output: z.object({ started: z.boolean(), streamArn: z.string(), viewType: z.string() }),
    /** Records arrive as `stream` events; a tail ends when cancelled or when its stream is gone. */
    done: z.undefined(),
  },
} as const;
