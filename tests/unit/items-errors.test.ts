import { describe, expect, it } from 'vitest';
import { toAppError } from '../../src/main/core/to-app-error';
import { withBackoff } from '../../src/main/core/retry';
import { conflictFailure } from '../../src/main/dynamo/writes/write-errors';

function awsError(name: string): Error {
  return Object.assign(new Error(`${name} from AWS`), { name, $metadata: { httpStatusCode: 400 } });
}

describe('the three failures a write can meet', () => {
  it('are three different sentences with their AWS names as codes', () => {
    const conflict = toAppError(conflictFailure('update', { pk: { S: 'x' } }));
    const throttled = toAppError(awsError('ProvisionedThroughputExceededException'));
    const expired = toAppError(awsError('ExpiredTokenException'));
    expect([conflict.code, throttled.code, expired.code]).toEqual([
      'ConditionalCheckFailedException',
      'ProvisionedThroughputExceededException',
      'ExpiredTokenException',
    ]);
    expect(conflict.message).toMatch(/changed this item after you loaded it/);
    expect(throttled.message).toMatch(/throttling/);
    expect(expired.message).toMatch(/session has expired/);
    expect(new Set([conflict.message, throttled.message, expired.message]).size).toBe(3);
    expect(throttled.retryable).toBe(true);
    expect(conflict.details?.current).toEqual({ pk: { S: 'x' } });
  });
});

describe('withBackoff', () => {
  it('retries throttling with growing waits, and nothing else', async () => {
    let calls = 0;
    const waits: number[] = [];
    const result = await withBackoff(
      () => {
        calls++;
        return calls < 3 ? Promise.reject(awsError('ThrottlingException')) : Promise.resolve('done');
      },
      { baseMs: 1, onThrottle: (_attempt, ms) => waits.push(ms) },
    );
    expect(result).toBe('done');
    expect(waits).toHaveLength(2);
    let conditional = 0;
    await expect(
      withBackoff(() => {
        conditional++;
        return Promise.reject(awsError('ConditionalCheckFailedException'));
      }),
    ).rejects.toThrow(/ConditionalCheckFailedException/);
    expect(conditional).toBe(1);
  });

  it('gives up after its attempts, and stops waiting when cancelled', async () => {
    let calls = 0;
    await expect(
      withBackoff(
        () => {
          calls++;
          return Promise.reject(awsError('RequestLimitExceeded'));
        },
        { attempts: 3, baseMs: 1 },
      ),
    ).rejects.toThrow(/RequestLimitExceeded/);
    expect(calls).toBe(3);
    const controller = new AbortController();
    const waiting = withBackoff(() => Promise.reject(awsError('ThrottlingException')), {
      signal: controller.signal,
      baseMs: 60_000,
      onThrottle: () => controller.abort(),
    });
    await expect(waiting).rejects.toThrow(/Cancelled/);
  });
});
