// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../../src/shared/ipc';
import type { LongWorkEnding } from '../../../src/renderer/features/operations/long-work';
import { type Harness, openHarness } from './bridge-harness';
import { counts, emit as emitEvent, purged } from './operation-events';
import { useLongWork } from '../../../src/renderer/features/operations/use-long-work';

// useLongWork rendered in a DOM (happy-dom, this file only): what a component shows while long
// work runs and how it ends. The bridge stands in for main: it records each call and answers a
// start call when the test says so (main answering late, as a busy main does); events arrive
// through the real operations store, as the event stream delivers them.

let answerStart: ((answer: { ok: true; value: unknown } | { ok: false; error: AppError }) => void)[];
let harness: Harness;

beforeEach(() => {
  answerStart = [];
  harness = openHarness((channel) => {
    if (channel === 'ops:cancel') return Promise.resolve({ ok: true, value: { cancelled: true } });
    return new Promise((resolve) => answerStart.push(resolve));
  });
});

afterEach(() => harness.close());

/** Main's event, inside act: the hook's component renders what it changed. */
const emit = (requestId: string, event: Record<string, unknown>): void => {
  act(() => emitEvent(requestId, event));
};

/** A purge as a component shows it: a status line, Start and Cancel. */
function PurgeView({ log }: { log: string[] }) {
  const work = useLongWork('tables:purge', {
    prefix: 'purge',
    onStarted: () => log.push('started'),
    onEnd: (ending: LongWorkEnding<'tables:purge'>) => log.push(`end ${ending.type}`),
  });
  const { ending } = work;
  const shown = work.isRunning
    ? `Purging: ${work.progress?.items ?? 0} deleted`
    : ending?.type === 'done'
      ? `Purged ${ending.value?.deleted ?? '?'} items`
      : ending?.type === 'cancelled'
        ? `Cancelled after ${ending.progress.items}`
        : ending?.type === 'failed'
          ? `Failed${ending.isRefused ? ' to start' : ''}: ${ending.error.message}`
          : 'Idle';
  return (
    <div>
      <p role="status">{shown}</p>
      <button
        type="button"
        onClick={() => void work.start({ connectionId: 'c1', table: 'Orders', confirmTable: 'Orders' })}
      >
        Purge
      </button>
      <button type="button" disabled={!work.isRunning} onClick={() => void work.cancel()}>
        Cancel
      </button>
    </div>
  );
}

const shown = () => harness.host.querySelector('[role="status"]')?.textContent;
const click = async (name: string) => {
  const button = [...harness.host.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no ${name} button`);
  // act's async form lets the click's promise chain (the start call, the cancel) run.
  await act(() => {
    button.click();
    return Promise.resolve();
  });
};
/** Main answers the start call (and the promise chain behind it runs). */
const answer = async (envelope: { ok: true; value: unknown } | { ok: false; error: AppError }) => {
  const resolve = answerStart.shift();
  if (!resolve) throw new Error('no start call is waiting');
  await act(() => {
    resolve(envelope);
    return Promise.resolve();
  });
};
const requestIdOf = (channel: string): string => {
  const requestId = harness.calls.find((call) => call.channel === channel)?.input.requestId;
  return typeof requestId === 'string' ? requestId : '';
};

describe('useLongWork in a rendered component', () => {
  it('shows progress as it comes, then the done value, ending exactly once', async () => {
    const log: string[] = [];
    act(() => harness.root.render(<PurgeView log={log} />));
    expect(shown()).toBe('Idle');
    await click('Purge');
    expect(shown()).toBe('Purging: 0 deleted');
    await answer({ ok: true, value: { started: true } });
    const requestId = requestIdOf('tables:purge');
    expect(requestId).toMatch(/^purge-/);
    emit(requestId, { type: 'progress', progress: counts(1) });
    expect(shown()).toBe('Purging: 1 deleted');
    emit(requestId, { type: 'progress', progress: counts(2) });
    expect(shown()).toBe('Purging: 2 deleted');
    emit(requestId, { type: 'done', progress: counts(2), value: purged });
    expect(shown()).toBe('Purged 2 items');
    // A late second ending (another seq, so the store passes it on) changes nothing.
    emit(requestId, { type: 'error', error: { code: 'X', message: 'late', retryable: false } });
    expect(shown()).toBe('Purged 2 items');
    expect(log).toEqual(['started', 'end done']);
  });

  it('ends as failed with main’s sentence, once, whether the work failed or its start was refused', async () => {
    const log: string[] = [];
    act(() => harness.root.render(<PurgeView log={log} />));
    await click('Purge');
    await answer({ ok: true, value: { started: true } });
    const requestId = requestIdOf('tables:purge');
    emit(requestId, {
      type: 'error',
      error: { code: 'ProvisionedThroughputExceededException', message: 'Throttled.', retryable: true },
    });
    expect(shown()).toBe('Failed: Throttled.');
    emit(requestId, { type: 'done', progress: counts(1), value: purged });
    expect(shown()).toBe('Failed: Throttled.');

    harness.calls.length = 0;
    await click('Purge');
    await answer({
      ok: false,
      error: { code: 'ReadOnlyConnection', message: 'This connection is read-only.', retryable: false },
    });
    expect(shown()).toBe('Failed to start: This connection is read-only.');
    expect(log).toEqual(['started', 'end failed', 'end failed']);
  });

  it('Cancel asks main to stop that request, and the cancelled ending shows once', async () => {
    const log: string[] = [];
    act(() => harness.root.render(<PurgeView log={log} />));
    await click('Purge');
    await answer({ ok: true, value: { started: true } });
    const requestId = requestIdOf('tables:purge');
    emit(requestId, { type: 'progress', progress: counts(4) });
    await click('Cancel');
    expect(harness.calls.at(-1)).toEqual({ channel: 'ops:cancel', input: { requestId } });
    // Until main says it stopped, the work is still running.
    expect(shown()).toBe('Purging: 4 deleted');
    emit(requestId, { type: 'cancelled', progress: counts(5) });
    expect(shown()).toBe('Cancelled after 5');
    emit(requestId, { type: 'done', progress: counts(5), value: purged });
    expect(shown()).toBe('Cancelled after 5');
    expect(log).toEqual(['started', 'end cancelled']);
  });

  it('Cancel while the start call is unanswered cancels that request, and ends once after the answer', async () => {
    const log: string[] = [];
    act(() => harness.root.render(<PurgeView log={log} />));
    await click('Purge');
    const requestId = requestIdOf('tables:purge');
    await click('Cancel');
    // The cancel names the request being started (main keeps early cancels for ids not started yet).
    expect(harness.calls.map((call) => call.channel)).toEqual(['tables:purge', 'ops:cancel']);
    expect(harness.calls[1]?.input).toEqual({ requestId });
    // Main ended the work as cancelled before its start call's answer came back.
    emit(requestId, { type: 'cancelled', progress: counts(0) });
    expect(shown()).toBe('Purging: 0 deleted');
    await answer({ ok: true, value: { started: true } });
    expect(shown()).toBe('Cancelled after 0');
    expect(log).toEqual(['started', 'end cancelled']);
  });

  it('unmounting stops listening without cancelling the work', async () => {
    const log: string[] = [];
    act(() => harness.root.render(<PurgeView log={log} />));
    await click('Purge');
    await answer({ ok: true, value: { started: true } });
    const requestId = requestIdOf('tables:purge');
    act(() => harness.root.render(<p>elsewhere</p>));
    emit(requestId, { type: 'done', progress: counts(2), value: purged });
    expect(harness.calls.map((call) => call.channel)).toEqual(['tables:purge']);
    expect(log).toEqual(['started']);
  });
});
