import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissTimer } from '../../src/renderer/features/journal/dismiss-timer';

describe("a toast's countdown", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends after its time, stops while the user is on the toast, and goes on with what was left', () => {
    const done = vi.fn();
    const timer = dismissTimer(10_000, done);
    vi.advanceTimersByTime(6_000);
    timer.pause();
    vi.advanceTimersByTime(60_000);
    expect(done).not.toHaveBeenCalled();
    timer.resume();
    vi.advanceTimersByTime(3_999);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledOnce();
  });

  it('never ends once cancelled (an undo is under way in it)', () => {
    const done = vi.fn();
    const timer = dismissTimer(10_000, done);
    timer.cancel();
    timer.resume();
    vi.advanceTimersByTime(60_000);
    expect(done).not.toHaveBeenCalled();
  });
});
