import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { OperationOutcome, OperationRegistry, OperationRun } from './operations';
import type { CoreContext, ServiceSlot } from './context';

/** The resumable jobs: each keeps a checkpoint or a record under the data folder between runs. */
export type JobKind = 'preflight' | 'schema' | 'copy' | 'fix' | 'export' | 'import' | 'purge';

export interface RunningJob {
  kind: JobKind;
  /** The job's own id (scanId, copyId, planId), which outlives any one run's requestId. */
  id: string;
  requestId: string;
  startedAt: string;
}

export interface JobStart {
  kind: JobKind;
  id: string;
  requestId: string;
  /** The sentence when this job is already running here: "That scan is still running." */
  busy: string;
}

/**
 * The one list of resumable jobs running in this core. A stored record that says "running" with
 * no entry here was cut off (a crash, a quit) and is shown as stopped. Before, each job kept a
 * process-wide set of its own, shared by every core in the process (the CLI's and the app's
 * tests build several), and a start refused by the registry left its id claimed for good.
 */
export class RunningJobs {
  private readonly byKey = new Map<string, RunningJob>();

  constructor(private readonly operations: OperationRegistry) {}

  isRunning(kind: JobKind, id: string): boolean {
    return this.byKey.has(keyOf(kind, id));
  }

  /** Refuses with `busy` (InvalidInput) when the job is running; checked before anything is written. */
  assertIdle(kind: JobKind, id: string, busy: string): void {
    if (this.isRunning(kind, id)) throw new AppFailure(ErrorCodes.invalidInput, busy);
  }

  /**
   * Claims the job and runs `work` as the operation `requestId`; the claim ends with the
   * operation, whichever way it ends, and at once if the operation could not start.
   */
  start(job: JobStart, work: (run: OperationRun) => Promise<OperationOutcome>): void {
    this.assertIdle(job.kind, job.id, job.busy);
    const key = keyOf(job.kind, job.id);
    this.byKey.set(key, {
      kind: job.kind,
      id: job.id,
      requestId: job.requestId,
      startedAt: new Date().toISOString(),
    });
    try {
      this.operations.start(job.requestId, (run) => work(run).finally(() => this.byKey.delete(key)));
    } catch (error) {
      this.byKey.delete(key);
      throw error;
    }
  }

  /** What runs now, oldest first; each job once, however often it was resumed. */
  list(kind?: JobKind): RunningJob[] {
    return [...this.byKey.values()].filter((job) => kind === undefined || job.kind === kind);
  }
}

function keyOf(kind: JobKind, id: string): string {
  return `${kind}\u0000${id}`;
}

/** The one list of resumable jobs (pre-flight and schema scans, copies, fix runs, table exports) running now. */
const runningJobsSlot: ServiceSlot<RunningJobs> = {
  name: 'runningJobs',
  create: (ctx) => new RunningJobs(ctx.operations),
};

export function runningJobs(ctx: CoreContext): RunningJobs {
  return ctx.services.get(runningJobsSlot);
}
