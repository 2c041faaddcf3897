import { z } from 'zod';
import { requestIdSchema } from './operations';

/**
 * Browser mode's event stream gives every operation event an SSE `id:`, and a reconnecting
 * EventSource gets everything after its `Last-Event-ID` again. When that point is older than
 * what the server keeps, the replay ends with this named event instead of pretending nothing
 * was lost: a sentence for the user, and which operations are still running, so the page can
 * tell a quiet operation from one whose end it missed.
 */
export const STREAM_GAP_EVENT = 'gap';

export const streamGapSchema = z.object({
  message: z.string(),
  running: z.array(requestIdSchema),
});
export type StreamGap = z.infer<typeof streamGapSchema>;
