import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/main/core/events';
import { EventReplayLog } from '../../src/main/server/event-replay';
import type { OperationEvent } from '../../src/shared/ipc';

const progress = (requestId: string, seq: number, message = ''): OperationEvent => ({
  type: 'progress',
  requestId,
  seq,
  progress: { items: seq, pages: seq, consumedCapacity: 0, message },
});

function logOf(maxEvents: number, maxBytes = 1024 * 1024) {
  const bus = new EventBus();
  return { bus, log: new EventReplayLog(bus, { maxEvents, maxBytes }) };
}

const seqs = (events: { data: string }[]) =>
  events.map((event) => (JSON.parse(event.data) as OperationEvent).seq);

describe('the browser-mode replay log', () => {
  it('counts a tab as listening only while its stream is open, not the log itself', () => {
    // Main asks before prompting (an MFA code): with no tab open, the prompt must fail at once.
    const { bus, log } = logOf(10);
    expect(bus.hasListeners()).toBe(false);
    const first = log.subscribe(() => undefined);
    const second = log.subscribe(() => undefined);
    expect(bus.hasListeners()).toBe(true);
    first();
    first();
    expect(bus.hasListeners()).toBe(true);
    second();
    expect(bus.hasListeners()).toBe(false);
  });

  it('numbers events from 1 and replays exactly those after the id a page last saw', () => {
    const { bus, log } = logOf(10);
    for (let seq = 0; seq < 4; seq++) bus.publish(progress('req-aaaaaaaa', seq));
    const replay = log.replay('2');
    expect(replay.isGap).toBe(false);
    expect(replay.events.map((event) => event.id)).toEqual([3, 4]);
    expect(seqs(replay.events)).toEqual([2, 3]);
    expect(log.replay('4').events).toEqual([]);
    // A page without Last-Event-ID is a new page: it gets new events only.
    expect(log.replay(undefined)).toEqual({ isGap: false, events: [] });
  });

  it('reports a gap past the count or byte budget, keeping the newest event even if it is large', () => {
    const { bus, log } = logOf(3, 2_000);
    for (let seq = 0; seq < 5; seq++) bus.publish(progress('req-aaaaaaaa', seq));
    expect(log.replay('1')).toMatchObject({ isGap: true, running: ['req-aaaaaaaa'] });
    expect(seqs(log.replay('1').events)).toEqual([2, 3, 4]);
    expect(log.replay('2').isGap).toBe(false);

    bus.publish(progress('req-aaaaaaaa', 5, 'x'.repeat(5_000)));
    expect(seqs(log.replay('5').events)).toEqual([5]);
    expect(log.replay('4').isGap).toBe(true);
  });

  it('treats an id it never sent as a gap with nothing to replay', () => {
    const { bus, log } = logOf(10);
    bus.publish(progress('req-aaaaaaaa', 0));
    for (const id of ['7', 'abc', '-1', '1e3'])
      expect(log.replay(id)).toMatchObject({ isGap: true, events: [] });
  });

  it('names only operations that have not ended as running', () => {
    const { bus, log } = logOf(1);
    bus.publish(progress('req-aaaaaaaa', 0));
    bus.publish(progress('req-bbbbbbbb', 0));
    bus.publish({
      type: 'cancelled',
      requestId: 'req-aaaaaaaa',
      seq: 1,
      progress: { items: 0, pages: 0, consumedCapacity: 0 },
    });
    expect(log.replay('1')).toMatchObject({ isGap: true, running: ['req-bbbbbbbb'] });
    log.close();
    bus.publish(progress('req-bbbbbbbb', 1));
    expect(log.replay('3').events).toEqual([]);
  });
});
