import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isRetryable, isThrottling, pollUntil, sleep, withBackoff } from '../../../src/main/core/retry';
import { toAppError } from '../../../src/main/core/to-app-error';

// As the SDK throws them: the service's name and response metadata.
const named = (name: string): Error => Object.assign(new Error(name), { name, $metadata: {} });
const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('the one retry module', () => {
  it('has one list of throttling errors, which toAppError also calls retryable', () => {
    for (const name of [
      'ProvisionedThroughputExceededException',
      'ThrottlingException',
      'RequestLimitExceeded',
      'LimitExceededException',
      'TooManyRequestsException',
    ]) {
      expect(isThrottling(named(name))).toBe(true);
      expect(toAppError(named(name)).retryable).toBe(true);
    }
    expect(isThrottling(named('TransactionConflictException'))).toBe(false);
    expect(isRetryable(named('TransactionConflictException'))).toBe(true);
    expect(isRetryable(named('ConditionalCheckFailedException'))).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });

  it('a finished sleep leaves no abort listener behind, over many waits on one signal', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) await sleep(0, controller.signal);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('a cancelled sleep rejects at once with Cancelled and removes its listener', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(60_000, controller.signal, 'The query was cancelled.');
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'Cancelled', message: 'The query was cancelled.' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(listeners(controller.signal)).toBe(0);
    await expect(sleep(10, controller.signal)).rejects.toMatchObject({ code: 'Cancelled' });
  });

  it('polling waits longer each time, stops when done, and leaves no listener', async () => {
    const controller = new AbortController();
    const states: number[] = [];
    let n = 0;
    const last = await pollUntil({
      poll: () => Promise.resolve(++n),
      isDone: (state) => state === 5,
      onState: (state) => states.push(state),
      signal: controller.signal,
      firstMs: 1,
      maxDelayMs: 4,
    });
    expect(last).toBe(5);
    expect(states).toEqual([1, 2, 3, 4, 5]);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('withBackoff retries a conflict, not a refusal that would fail again', async () => {
    let calls = 0;
    const result = await withBackoff(
      () => (++calls < 3 ? Promise.reject(named('TransactionConflictException')) : Promise.resolve('ok')),
      { baseMs: 1 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withBackoff(() => (++calls, Promise.reject(named('ValidationException'))), { baseMs: 1 }),
    ).rejects.toMatchObject({ name: 'ValidationException' });
    expect(calls).toBe(1);
  });
});
