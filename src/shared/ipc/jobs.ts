import { z } from 'zod';
import { setAsideNoticeSchema } from './data-files';

/**
 * An import or a purge that did not finish: stopped by Cancel, failed, or cut off when DynoTable
 * (or the process that ran it) closed. Its record is kept in the data folder's job store until
 * it is forgotten, so the user learns after a restart where it stopped and what to do.
 */
export const stoppedJobSchema = z.object({
  kind: z.enum(['import', 'purge']),
  id: z.string(),
  connectionId: z.string(),
  table: z.string(),
  /** `interrupted`: it was running when DynoTable closed; `stopped`: cancelled or failed. */
  state: z.enum(['interrupted', 'stopped']),
  startedAt: z.string(),
  updatedAt: z.string(),
  /** Items written (an import) or deleted (a purge) before it stopped. */
  items: z.number().int().min(0),
  /** The whole story in one sentence: where it stopped, what it wrote, how to go on. */
  sentence: z.string(),
  /**
   * Whether Resume can go on with it: a purge always can (it purges what is left); an import
   * can when it read a file (not pasted text) and its record knows where it stopped.
   */
  canResume: z.boolean(),
});
export type StoppedJob = z.infer<typeof stoppedJobSchema>;

/** The id of a job in the job store (an import's, a purge's). */
export const jobIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,80}$/);

export const jobChannels = {
  /** The connection's imports and purges that did not finish, newest first; unreadable records set aside. */
  'jobs:stopped': {
    input: z.object({ connectionId: z.string() }),
    output: z.object({ jobs: z.array(stoppedJobSchema), setAside: z.array(setAsideNoticeSchema) }),
  },
  /** Forgets a stopped import's or purge's record (what it wrote or deleted stays as it is). */
  'jobs:forget': {
    input: z.object({ kind: z.enum(['import', 'purge']), id: jobIdSchema }),
    output: z.object({ forgotten: z.boolean() }),
  },
} as const;
