import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/main/core/events';
import { OperationRegistry, type OperationRun } from '../../src/main/core/operations';
import { startBrowserServer, type BrowserServer } from '../../src/main/server/http-server';
import type { OperationEvent } from '../../src/shared/ipc';
import {
  openEvents,
  rawRequest,
  tokenOf,
  type EventStreamReader,
  type SseMessage,
} from '../support/browser-http';
import { watchEventStreamSockets, type EventStreamSockets } from '../support/event-stream-sockets';

// A stream dropped mid-operation, as a flaky network or a paused tunnel drops it: the real
// server, EventBus and OperationRegistry; the test destroys the server's socket and the client
// reconnects the way EventSource does, sending the last id it saw as Last-Event-ID.
let root: string;
let sockets: EventStreamSockets;
const servers: BrowserServer[] = [];
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dynotable-events-'));
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  sockets.stop();
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function serve(replay?: { maxEvents: number; maxBytes: number }) {
  const events = new EventBus();
  const server = await startBrowserServer({
    dispatch: () => Promise.resolve({ ok: true, value: {} }),
    events,
    staticDir: root,
    port: 0,
    replay,
  });
  servers.push(server);
  sockets = watchEventStreamSockets(server.port);
  const cookie = `dynotable_token=${tokenOf(server.url)}`;
  const connect = async (lastEventId?: string) => {
    const headers: Record<string, string> = { cookie };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const stream = await openEvents(server.port, headers);
    streams.push(stream);
    return stream;
  };
  const operations = new OperationRegistry(events);
  /** Lets gated work go on and waits until it has sent its last event. */
  const finish = async (requestId: string, gated: { release(): void }) => {
    gated.release();
    await expect.poll(() => operations.isRunning(requestId)).toBe(false);
  };
  return { server, events, operations, cookie, connect, finish };
}

/** Work that emits `before` progress events, waits to be let go, then emits `after` more. */
function gatedWork(before: number, after: number) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const progress = (items: number) => ({ items, pages: items, consumedCapacity: items / 2 });
  const work = async ({ emit }: OperationRun) => {
    for (let i = 1; i <= before; i++) emit({ type: 'progress', progress: progress(i) });
    await released;
    for (let i = before + 1; i <= before + after; i++) emit({ type: 'progress', progress: progress(i) });
    return { progress: progress(before + after) };
  };
  return { work, release };
}

/** Drops the stream at the server's end; resolves once the client has seen it go. */
async function drop(stream: EventStreamReader): Promise<void> {
  sockets.drop();
  await stream.ended;
}

async function take(stream: EventStreamReader, count: number): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for (let i = 0; i < count; i++) messages.push(await stream.nextMessage());
  return messages;
}

const eventOf = (message: SseMessage) => message.data as OperationEvent;

describe('browser mode: a dropped event stream', () => {
  it('replays every event after Last-Event-ID on reconnect, once and in order, up to done', async () => {
    const { operations, connect, finish } = await serve();
    const first = await connect();
    const scan = gatedWork(3, 5);
    operations.start('req_dropped_scan', scan.work);
    const seen = await take(first, 3);

    await drop(first);
    // Sent while nobody is connected: without a replay the page never learns the scan ended.
    await finish('req_dropped_scan', scan);

    const second = await connect(seen.at(-1)?.id);
    seen.push(...(await take(second, 6)));
    expect(seen.map((m) => eventOf(m).seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(seen.map((m) => eventOf(m).type)).toEqual([...Array<string>(8).fill('progress'), 'done']);
    expect(seen.every((m) => m.event === 'message')).toBe(true);
    const ids = seen.map((m) => Number(m.id));
    expect(ids).toEqual(ids.map((_id, i) => (ids[0] ?? 0) + i));

    // Nothing repeats after the replay: the next message is the next operation's first event.
    operations.start('req_after_replay', () =>
      Promise.resolve({ progress: { items: 0, pages: 0, consumedCapacity: 0 } }),
    );
    const next = await second.nextMessage();
    expect(eventOf(next)).toMatchObject({ requestId: 'req_after_replay', type: 'done', seq: 0 });
    expect(Number(next.id)).toBe((ids.at(-1) ?? 0) + 1);
  });

  it('starts a page that sends no Last-Event-ID with new events only', async () => {
    const { operations, connect } = await serve();
    operations.start('req_before_page', () =>
      Promise.resolve({ progress: { items: 1, pages: 1, consumedCapacity: 0 } }),
    );
    await expect.poll(() => operations.isRunning('req_before_page')).toBe(false);
    const stream = await connect();
    operations.start('req_after_page', () =>
      Promise.resolve({ progress: { items: 2, pages: 1, consumedCapacity: 0 } }),
    );
    expect(eventOf(await stream.nextMessage()).requestId).toBe('req_after_page');
  });

  it('says so with a gap event when the drop outlasted the replay buffer, naming what still runs', async () => {
    const { operations, connect, finish } = await serve({ maxEvents: 5, maxBytes: 1024 * 1024 });
    const first = await connect();
    const ending = gatedWork(1, 10);
    const still = gatedWork(1, 0);
    const chatty = gatedWork(0, 6);
    operations.start('req_ends_in_gap', ending.work);
    operations.start('req_still_running', still.work);
    const seen = await take(first, 2);

    await drop(first);
    await finish('req_ends_in_gap', ending);
    // Seven more events push the first operation's done out of a buffer of five.
    operations.start('req_chatty', chatty.work);
    await finish('req_chatty', chatty);

    const second = await connect(seen.at(-1)?.id);
    const replayed = await take(second, 6);
    expect(replayed.slice(0, 5).map((m) => [eventOf(m).requestId, eventOf(m).seq])).toEqual([
      ['req_chatty', 2],
      ['req_chatty', 3],
      ['req_chatty', 4],
      ['req_chatty', 5],
      ['req_chatty', 6],
    ]);
    const gap = replayed[5];
    expect(gap?.event).toBe('gap');
    expect(gap?.id).toBeUndefined();
    expect(gap?.data).toEqual({
      message: expect.stringMatching(/some live updates were missed.*reload the page/) as unknown,
      running: ['req_still_running'],
    });

    // The stream goes on live after the gap, numbered where the log left off.
    still.release();
    const done = await second.nextMessage();
    expect(eventOf(done)).toMatchObject({ requestId: 'req_still_running', type: 'done', seq: 1 });
    expect(Number(done.id)).toBe(Number(replayed[4]?.id) + 1);
  });

  it("lets go of the core's events when the server closes", async () => {
    const { server, events, connect } = await serve();
    await connect();
    const busListeners = () => (events as unknown as { listeners: Set<unknown> }).listeners.size;
    expect(busListeners()).toBe(1);
    await server.close();
    expect(busListeners()).toBe(0);
  });

  it('keeps the token and origin rules for a reconnect with Last-Event-ID', async () => {
    const { server, cookie } = await serve();
    const anonymous = await rawRequest({
      port: server.port,
      path: '/api/events',
      headers: { accept: 'text/event-stream', 'last-event-id': '1' },
    });
    expect(anonymous.status).toBe(401);
    const foreign = await rawRequest({
      port: server.port,
      path: '/api/events',
      headers: { cookie, 'last-event-id': '1', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});
