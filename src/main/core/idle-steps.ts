/**
 * Work done while nothing else is: short steps, each on its own turn of the event loop, so a
 * message, an IPC call or an I/O callback already due runs between two steps and waits at most
 * one step. Used to warm code paths before the user's first use (schema/warm-up.ts); stopped
 * for good by the first real use, which then runs whatever was compiled by then.
 */
export interface IdleWork {
  /** Ends the work before its next step. */
  stop(): void;
  /** Steps run when it ended (finished, stopped or failed). */
  readonly done: Promise<number>;
}

export interface IdleStepsOptions {
  /** Quiet time before the first step: start-up's own work goes first. */
  startAfterMs?: number;
  /**
   * Told once, with a sentence, when a step throws; the work then ends. Idle work only ever
   * makes something later faster, so its failure is a defect to log, never the user's to see.
   */
  onError?: (message: string) => void;
  /** What the work is, for that sentence ("The schema analysis' warm-up"). */
  name: string;
  /** How a step waits for its turn (setImmediate: after any callback already due). */
  schedule?: (step: () => void) => void;
}

export function runIdleSteps(steps: Iterator<unknown>, options: IdleStepsOptions): IdleWork {
  const schedule = options.schedule ?? ((step: () => void) => setImmediate(step));
  let isStopped = false;
  let count = 0;
  let finish!: (steps: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const next = (): void => {
    if (isStopped) return;
    try {
      if (steps.next().done) {
        isStopped = true;
        finish(count);
        return;
      }
    } catch (error) {
      isStopped = true;
      options.onError?.(
        `${options.name} failed at step ${count + 1}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      finish(count);
      return;
    }
    count++;
    schedule(next);
  };
  const startAfter = options.startAfterMs ?? 0;
  // Unref'd: idle work never keeps a process alive.
  const timer = startAfter > 0 ? setTimeout(() => schedule(next), startAfter).unref() : undefined;
  if (!timer) schedule(next);
  return {
    stop: () => {
      if (isStopped) return;
      isStopped = true;
      if (timer) clearTimeout(timer);
      // Steps are synchronous: none is under way while this runs, so the count is final.
      finish(count);
    },
    done,
  };
}
