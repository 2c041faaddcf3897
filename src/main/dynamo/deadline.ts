import { AppFailure } from '../../shared/errors';

export const TIMED_OUT = 'TimedOut';

/**
 * Runs a bounded request/response call (not a cancellable operation) under a deadline, so a
 * black-holed endpoint answers with a sentence instead of a spinner that never ends.
 */
export async function withDeadline<T>(
  ms: number,
  what: string,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  try {
    return await run(signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    throw new AppFailure(
      TIMED_OUT,
      `DynamoDB did not answer within ${Math.round(ms / 1000)} seconds while ${what}. Check the network and the endpoint, then try again.`,
      true,
    );
  }
}
