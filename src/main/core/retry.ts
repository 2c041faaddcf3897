import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * The one list of AWS error names that mean "slow down and send it again": the request was
 * refused, so sending it again cannot apply it twice. DynamoDB's own three, the control plane's
 * LimitExceededException (too many table operations at once) and the other services'
 * TooManyRequestsException.
 */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TooManyRequestsException',
]);

function nameOf(error: unknown): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

export function isThrottling(error: unknown): boolean {
  return THROTTLING.has(nameOf(error));
}

/**
 * Throttling, or a write that met another transaction on its item: both were refused as a whole
 * and are worth sending again after a pause.
 */
export function isRetryable(error: unknown): boolean {
  return isThrottling(error) || nameOf(error) === 'TransactionConflictException';
}

/** A cancel, however it arrived: our own Cancelled failure, the SDK's AbortError, a timeout. */
export function isCancellation(error: unknown): boolean {
  const name = nameOf(error);
  return name === 'AbortError' || name === 'TimeoutError' || name === ErrorCodes.cancelled;
}

export function cancelled(message = 'Cancelled.'): AppFailure {
  return new AppFailure(ErrorCodes.cancelled, message);
}

/** Exponential backoff with full jitter: baseMs · 2^attempt at most, and never above 20 s. */
export function backoffMs(attempt: number, baseMs = 100): number {
  return Math.round(Math.random() * Math.min(20_000, baseMs * 2 ** attempt));
}

/**
 * setTimeout that ends early when the signal fires, rejecting with a Cancelled failure (with
 * `message`, for a caller whose cancel means something more). The abort listener goes away on
 * either ending, so a long run of waits on one signal leaves none behind.
 */
export function sleep(ms: number, signal?: AbortSignal, message?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelled(message));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(message));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface BackoffOptions {
  signal?: AbortSignal;
  attempts?: number;
  baseMs?: number;
  /** Told before each wait, so long operations can show "throttled, waiting". */
  onThrottle?: (attempt: number, waitMs: number) => void;
}

/**
 * Retries refused work (isRetryable) with exponential backoff and full jitter, on top of the
 * SDK's own attempts: a bulk write or a long read on a provisioned table should slow down, not
 * fail. Not for a save someone waits on (see send-write.ts).
 */
export async function withBackoff<T>(work: () => Promise<T>, options: BackoffOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryable(error) || attempt >= attempts || options.signal?.aborted) throw error;
      const waitMs = backoffMs(attempt, options.baseMs);
      options.onThrottle?.(attempt, waitMs);
      await sleep(waitMs, options.signal);
    }
  }
}

export interface PollOptions<T> {
  /** Asks once; the signal goes to the request. */
  poll: (signal?: AbortSignal) => Promise<T>;
  isDone: (state: T) => boolean;
  onState?: (state: T) => void;
  signal?: AbortSignal;
  firstMs: number;
  maxDelayMs: number;
  /** What a cancel during a wait says. */
  cancelMessage?: string;
}

/** Asks until done, waiting firstMs, then twice as long each time up to maxDelayMs. */
export async function pollUntil<T>(options: PollOptions<T>): Promise<T> {
  let delay = options.firstMs;
  for (;;) {
    const state = await options.poll(options.signal);
    options.onState?.(state);
    if (options.isDone(state)) return state;
    await sleep(delay, options.signal, options.cancelMessage);
    delay = Math.min(options.maxDelayMs, delay * 2);
  }
}

/** A call's own signal under a shared cancel; `release` unhooks it once the call has ended. */
export interface AbortFanOut {
  /** Runs `work` with a signal of its own that aborts when the shared one does. */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Unhooks the one listener on the shared signal (the calls still running keep their signals). */
  close(): void;
}

/**
 * Many calls at once under one cancel (a scan's segments with their read-ahead, a copy's writers,
 * eight puts of a batch): smithy hooks an abort listener on the signal of every request in
 * flight, and so does every wait (sleep, a rate limiter's turn), so on one shared signal a
 * 16-segment scan had 11 and Node printed MaxListenersExceededWarning. Each call gets a signal of
 * its own instead, dropped when it ends; the shared signal holds one listener for all of them.
 * Not setMaxListeners: a leak of listeners would then go unseen. AbortSignal.any would add no
 * listener either, but its dependent signals go only when collected; these go when the call ends.
 */
export function abortFanOut(shared: AbortSignal): AbortFanOut {
  const calls = new Set<AbortController>();
  const onAbort = (): void => {
    for (const call of calls) call.abort(shared.reason);
  };
  shared.addEventListener('abort', onAbort, { once: true });
  return {
    async run(work) {
      const call = new AbortController();
      if (shared.aborted) call.abort(shared.reason);
      else calls.add(call);
      try {
        return await work(call.signal);
      } finally {
        calls.delete(call);
      }
    },
    close() {
      shared.removeEventListener('abort', onAbort);
    },
  };
}
