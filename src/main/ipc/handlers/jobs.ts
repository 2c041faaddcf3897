import { forgetStoppedJob, stoppedJobs } from '../../jobs/work-records';
import type { HandlerTable } from '../dispatcher';

/** Imports and purges that did not finish, from the one job store. */
export const jobHandlers: Pick<HandlerTable, 'jobs:stopped' | 'jobs:forget'> = {
  'jobs:stopped': ({ connectionId }, ctx) => stoppedJobs(ctx, connectionId),
  'jobs:forget': ({ kind, id }, ctx) => forgetStoppedJob(ctx, kind, id),
};
