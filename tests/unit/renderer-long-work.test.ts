import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/shared/ipc';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import {
  followLongWork,
  type LongWorkEnding,
  type LongWorkStart,
  startLongWork,
} from '../../src/renderer/features/operations/long-work';
import { counts, emit, purged } from './renderer/operation-events';
import { copyReport } from '../support/copy-report';

// The renderer's one way of following long work: subscribe to one requestId, route its events,
// settle exactly once with the done value read by the channel's schema. The bridge stands in for
// main (it records the calls and answers them); events arrive through the real operations store.

interface Recorded {
  channel: string;
  input: Record<string, unknown>;
}
let calls: Recorded[];
let refusal: AppError | undefined;

beforeEach(() => {
  calls = [];
  refusal = undefined;
  const bridge = new Proxy(
    {},
    {
      get: (_target, channel: string) => (input: Record<string, unknown>) => {
        calls.push({ channel, input });
        if (refusal && channel !== 'ops:cancel') return Promise.resolve({ ok: false, error: refusal });
        const value = channel === 'copy:start' ? { started: true, copyId: 'copy-abc-01' } : { started: true };
        return Promise.resolve({ ok: true, value });
      },
    },
  );
  (globalThis as Record<string, unknown>).window = { [BRIDGE_KEY]: bridge };
});

afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
});

const report = copyReport('c1', 'Orders', 'Orders-copy');

/** Starts a purge of Orders, the work most tests follow. */
const purgeOrders = (options: LongWorkStart<'tables:purge'>) =>
  startLongWork('tables:purge', { connectionId: 'c1', table: 'Orders', confirmTable: 'Orders' }, options);

/** Lets the bridge's answer and queued microtasks run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startLongWork', () => {
  it('routes progress, then settles once with the typed done value, and stops listening', async () => {
    const progress: (string | undefined)[] = [];
    const endings: LongWorkEnding<'tables:purge'>[] = [];
    const work = purgeOrders({
      prefix: 'purge',
      onProgress: (p) => progress.push(p.message),
      onEnd: (ending) => endings.push(ending),
    });
    expect(await work.started).toBe(true);
    expect(calls[0]).toMatchObject({ channel: 'tables:purge', input: { requestId: work.requestId } });
    expect(work.requestId).toMatch(/^purge-/);

    emit(work.requestId, { type: 'progress', progress: counts(1, '1 deleted') });
    emit(work.requestId, { type: 'progress', progress: counts(2, '2 deleted') });
    emit(work.requestId, {
      type: 'done',
      progress: counts(2),
      value: purged,
    });
    // A repeat of an ending (another seq, so the store passes it on) changes nothing.
    emit(work.requestId, { type: 'error', error: { code: 'X', message: 'late', retryable: false } });

    expect(progress).toEqual(['1 deleted', '2 deleted']);
    expect(endings).toHaveLength(1);
    expect(endings[0]).toEqual({ type: 'done', value: purged, progress: counts(2), cursor: undefined });
  });

  it('gives a done value of the wrong shape as undefined, never as an unchecked object', async () => {
    const endings: LongWorkEnding<'tables:purge'>[] = [];
    const work = purgeOrders({ onEnd: (e) => endings.push(e) });
    await work.started;
    emit(work.requestId, { type: 'done', progress: counts(0), value: { ...purged, deleted: 'many' } });
    expect(endings).toEqual([{ type: 'done', value: undefined, progress: counts(0), cursor: undefined }]);
  });

  it('ends as failed with main’s sentence when the start call is refused', async () => {
    refusal = { code: 'ReadOnlyConnection', message: 'This connection is read-only.', retryable: false };
    const endings: LongWorkEnding<'tables:purge'>[] = [];
    const started: unknown[] = [];
    const work = purgeOrders({ onEnd: (e) => endings.push(e), onStarted: (o) => started.push(o) });
    expect(await work.started).toBe(false);
    expect(started).toEqual([]);
    expect(endings).toEqual([{ type: 'failed', error: refusal, isRefused: true }]);
  });

  it('hands the start call’s answer to onStarted before the ending, also when the work ended first', async () => {
    const endings: string[] = [];
    const work = startLongWork(
      'copy:start',
      (requestId) => {
        // The quick copy ends before its start call answers.
        emit(requestId, { type: 'done', progress: counts(3), value: report });
        return Promise.resolve({ ok: true as const, value: { started: true, copyId: 'copy-abc-01' } });
      },
      {
        onStarted: (o) => endings.push(`started ${o.copyId}`),
        onEnd: (e) => endings.push(e.type === 'done' ? `done ${e.value?.itemsWritten}` : e.type),
      },
    );
    await work.started;
    await settled();
    expect(endings).toEqual(['started copy-abc-01', 'done 3']);
  });

  it('cancel asks main to stop the request, and the cancelled ending arrives once', async () => {
    const endings: LongWorkEnding<'tables:purge'>[] = [];
    const work = purgeOrders({ onEnd: (e) => endings.push(e) });
    await work.started;
    await work.cancel();
    expect(calls.at(-1)).toEqual({ channel: 'ops:cancel', input: { requestId: work.requestId } });
    emit(work.requestId, { type: 'cancelled', progress: counts(5), cursor: 'c-1' });
    emit(work.requestId, { type: 'done', progress: counts(5) });
    expect(endings).toEqual([{ type: 'cancelled', progress: counts(5), cursor: 'c-1' }]);
  });

  it('after stop() (a view unmounted) hears nothing more, and the work is not cancelled', async () => {
    const seen: string[] = [];
    const work = purgeOrders({ onEvent: (e) => seen.push(e.type), onEnd: (e) => seen.push(e.type) });
    await work.started;
    emit(work.requestId, { type: 'progress', progress: counts(1) });
    work.stop();
    emit(work.requestId, { type: 'progress', progress: counts(2) });
    emit(work.requestId, { type: 'done', progress: counts(2) });
    expect(seen).toEqual(['progress']);
    expect(calls.map((c) => c.channel)).toEqual(['tables:purge']);
  });

  it('ignores the events of other requests', async () => {
    const seen: string[] = [];
    const one = startLongWork(
      'tables:purge',
      { connectionId: 'c1', table: 'A-table', confirmTable: 'A-table' },
      { onEvent: (e) => seen.push(`one ${e.type}`), onEnd: (e) => seen.push(`one ${e.type}`) },
    );
    const two = startLongWork(
      'tables:purge',
      { connectionId: 'c1', table: 'B-table', confirmTable: 'B-table' },
      { onEvent: (e) => seen.push(`two ${e.type}`), onEnd: (e) => seen.push(`two ${e.type}`) },
    );
    await Promise.all([one.started, two.started]);
    emit(two.requestId, { type: 'progress', progress: counts(1) });
    emit(two.requestId, { type: 'cancelled', progress: counts(1) });
    emit('req-somebody-else', { type: 'done', progress: counts(1) });
    expect(seen).toEqual(['two progress', 'two cancelled']);
    one.stop();
  });
});

describe('followLongWork', () => {
  it('settles work that ended before anyone followed it, once', async () => {
    emit('mig-ended-early-1', {
      type: 'error',
      error: { code: 'Boom', message: 'It broke.', retryable: true },
    });
    const endings: LongWorkEnding<'migration:scan'>[] = [];
    followLongWork('migration:scan', 'mig-ended-early-1', { onEnd: (e) => endings.push(e) });
    await settled();
    expect(endings).toEqual([
      {
        type: 'failed',
        error: { code: 'Boom', message: 'It broke.', retryable: true },
        cursor: undefined,
        isRefused: false,
      },
    ]);
  });

  it('routes events other than progress (a stream tail’s records) to onEvent', () => {
    const seen: string[] = [];
    const tail = followLongWork('streams:tail', 'tail-follow-0001', { onEvent: (e) => seen.push(e.type) });
    emit('tail-follow-0001', { type: 'stream', records: [], shards: 2 });
    emit('tail-follow-0001', { type: 'stream', records: [], shards: 2 });
    tail.stop();
    expect(seen).toEqual(['stream', 'stream']);
  });
});
