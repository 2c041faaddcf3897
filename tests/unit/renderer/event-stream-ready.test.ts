import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventStreamReady, startEventStream } from '../../../src/renderer/ipc/subscriptions';

/** Browser mode's EventSource as far as the renderer uses it: opened later, by the test. */
class TestEventSource {
  static made: TestEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  isClosed = false;
  constructor(readonly url: string) {
    TestEventSource.made.push(this);
  }
  addEventListener(): void {}
  close(): void {
    this.isClosed = true;
  }
}

const receivers = { deliver: () => undefined, gap: () => undefined };

afterEach(() => {
  vi.unstubAllGlobals();
  TestEventSource.made = [];
});

describe('eventStreamReady in browser mode', () => {
  it('lets calls started under a stream closed before it opened go on when the next stream opens', async () => {
    vi.stubGlobal('EventSource', TestEventSource);
    // React's StrictMode in development: mount, unmount, mount again.
    const stopFirst = startEventStream(receivers);
    let isReady = false;
    const ready = eventStreamReady(60_000).then(() => (isReady = true));
    stopFirst();
    startEventStream(receivers);
    const [first, second] = TestEventSource.made;
    expect(first?.isClosed).toBe(true);
    await Promise.resolve();
    expect(isReady).toBe(false);
    second?.onopen?.();
    await ready;
    expect(isReady).toBe(true);
    // Once open, calls no longer wait, even while the stream reconnects.
    await expect(eventStreamReady(60_000)).resolves.toBeUndefined();
  });
});
