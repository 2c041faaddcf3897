import type { OperationEvent, Progress } from '../../shared/ipc';
import type { OperationChannel, OperationDone } from '../../shared/ipc/contract';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { toAppError } from './to-app-error';
import type { EventBus } from './events';

type Payload<T> = T extends OperationEvent ? Omit<T, 'requestId' | 'seq'> : never;
export type OperationEmit = (event: Payload<OperationEvent>) => void;

export interface OperationRun {
  signal: AbortSignal;
  /** Sends progress / page / agent / mfa events; the final event is sent by the registry. */
  emit: OperationEmit;
}

/**
 * What an operation returns when it finishes without error; `OperationOutcome<'copy:start'>`
 * types its value by the `done` schema the channel declares in the contract.
 */
export interface OperationOutcome<C extends OperationChannel = never> {
  progress: Progress;
  cursor?: string;
  value?: [C] extends [never] ? unknown : OperationDone<C>;
}

/** Early cancels kept at most; request ids are one-use, so only the latest few can still start. */
const MAX_EARLY_CANCELS = 64;

/**
 * Runs long work under a caller-chosen requestId with an AbortController, numbering events
 * with `seq` and guaranteeing exactly one terminal event: done | cancelled | error.
 */
export class OperationRegistry {
  private readonly running = new Map<string, AbortController>();
  /**
   * Cancels that arrived before their operation started. A view shows Cancel as soon as it sends
   * the start call, whose handler may still be resolving credentials or writing a file when the
   * cancel, a call of its own, overtakes it; dropped, that click would let the work run to its end.
   */
  private readonly cancelledEarly = new Set<string>();

  constructor(private readonly bus: EventBus) {}

  start(requestId: string, work: (run: OperationRun) => Promise<OperationOutcome>): void {
    if (this.running.has(requestId)) {
      throw new AppFailure(ErrorCodes.invalidInput, `Request ${requestId} is already running.`);
    }
    const controller = new AbortController();
    // The work still runs, on a stopped signal, so it ends the way any cancelled run does (a
    // migration scan records itself as cancelled, say).
    if (this.cancelledEarly.delete(requestId)) controller.abort();
    this.running.set(requestId, controller);
    let seq = 0;
    let finished = false;
    const send = (event: Payload<OperationEvent>): void => {
      if (finished) return;
      if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') finished = true;
      this.bus.publish({ ...event, requestId, seq: seq++ });
    };
    const emit: OperationEmit = (event) => {
      if (
        event.type === 'progress' ||
        event.type === 'page' ||
        event.type === 'agent' ||
        event.type === 'mfa' ||
        event.type === 'stream'
      )
        send(event);
    };
    let lastProgress: Progress = { items: 0, pages: 0, consumedCapacity: 0 };
    const tracking: OperationEmit = (event) => {
      if (event.type === 'progress') lastProgress = event.progress;
      emit(event);
    };
    void Promise.resolve()
      .then(() => work({ signal: controller.signal, emit: tracking }))
      .then(
        (outcome) => {
          if (controller.signal.aborted)
            send({ type: 'cancelled', progress: outcome.progress, cursor: outcome.cursor });
          else
            send({ type: 'done', progress: outcome.progress, cursor: outcome.cursor, value: outcome.value });
        },
        (error: unknown) => {
          if (controller.signal.aborted) {
            const cursor =
              error instanceof AppFailure ? (error.details?.cursor as string | undefined) : undefined;
            send({ type: 'cancelled', progress: lastProgress, cursor });
          } else {
            const appError = toAppError(error);
            send({ type: 'error', error: appError, cursor: appError.details?.cursor as string | undefined });
          }
        },
      )
      .finally(() => this.running.delete(requestId));
  }

  /** True when a running operation was stopped; otherwise the cancel waits for that id to start. */
  cancel(requestId: string): boolean {
    const controller = this.running.get(requestId);
    if (!controller) {
      this.cancelledEarly.add(requestId);
      // A Set iterates in insertion order: the oldest goes first.
      if (this.cancelledEarly.size > MAX_EARLY_CANCELS)
        this.cancelledEarly.delete(this.cancelledEarly.values().next().value as string);
      return false;
    }
    controller.abort();
    return true;
  }

  cancelAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  isRunning(requestId: string): boolean {
    return this.running.has(requestId);
  }
}
