import { AppFailure, ErrorCodes } from '../../../shared/errors';

const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);

export function isThrottled(error: unknown): boolean {
  return THROTTLED.has((error as { name?: string } | undefined)?.name ?? '');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AppFailure(ErrorCodes.cancelled, 'Cancelled.'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppFailure(ErrorCodes.cancelled, 'Cancelled.'));
    };
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
 * Retries throttled work with exponential backoff and full jitter, on top of the SDK's own five
 * attempts: a bulk write or a long read on a provisioned table should slow down, not fail. Not
 * for a save someone waits on (see send-write.ts). Only throttling is retried here; the request
 * was refused, so sending it again cannot apply it twice.
 */
export async function withBackoff<T>(work: () => Promise<T>, options: BackoffOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  const base = options.baseMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isThrottled(error) || attempt >= attempts) throw error;
      const waitMs = Math.round(Math.random() * Math.min(20_000, base * 2 ** attempt));
      options.onThrottle?.(attempt, waitMs);
      await sleep(waitMs, options.signal);
    }
  }
}
