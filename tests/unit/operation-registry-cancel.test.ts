import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/main/core/events';
import { OperationRegistry } from '../../src/main/core/operations';
import type { OperationEvent } from '../../src/shared/ipc';

const progress = { items: 0, pages: 0, consumedCapacity: 0 };

/** A registry on its own bus, and a way to start work that says whether it began stopped. */
function registry() {
  const bus = new EventBus();
  const operations = new OperationRegistry(bus);
  /** Starts work that ends as soon as it runs; resolves with its terminal event and what its signal said. */
  const run = (requestId: string) =>
    new Promise<{ end: OperationEvent; startedStopped: boolean }>((resolve) => {
      let startedStopped = false;
      const stop = bus.subscribe((event) => {
        if (event.requestId !== requestId || event.type === 'progress') return;
        stop();
        resolve({ end: event, startedStopped });
      });
      operations.start(requestId, ({ signal }) => {
        startedStopped = signal.aborted;
        return Promise.resolve({ progress });
      });
    });
  return { operations, run };
}

describe('a cancel that arrives before its operation starts', () => {
  it('is answered cancelled: false, and the operation then starts stopped and ends cancelled', async () => {
    const { operations, run } = registry();
    // The view's Cancel overtook its start call, whose handler was still resolving credentials.
    expect(operations.cancel('req-overtaken')).toBe(false);
    const overtaken = await run('req-overtaken');
    expect(overtaken.startedStopped).toBe(true);
    expect(overtaken.end).toMatchObject({ type: 'cancelled', requestId: 'req-overtaken', seq: 0 });
    // Others run as usual.
    expect((await run('req-other')).end).toMatchObject({ type: 'done', requestId: 'req-other' });
  });

  it('keeps only the latest 64, so cancels of ids that never start cannot pile up', async () => {
    const { operations, run } = registry();
    for (let i = 0; i <= 64; i++) operations.cancel(`req-never-${i}`);
    expect((await run('req-never-0')).end.type).toBe('done');
    expect((await run('req-never-1')).end.type).toBe('cancelled');
    expect((await run('req-never-64')).end.type).toBe('cancelled');
  });
});
