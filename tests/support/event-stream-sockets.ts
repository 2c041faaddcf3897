import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface EventStreamSockets {
  /** The Last-Event-ID of each GET /api/events so far ('' when the request had none). */
  readonly lastEventIds: string[];
  /** Destroys the server's socket of every open event stream, as a dropped network would. */
  drop(): void;
  /** While down, every new event stream is dropped as soon as it arrives (a longer outage). */
  setDown(isDown: boolean): void;
  stop(): void;
}

/**
 * Watches the event-stream requests of one browser-mode server (by its port) in this process
 * through node:http's diagnostics channel, which hands out the server's own socket: the test
 * cuts the connection at the server's end without any hook in the server.
 */
export function watchEventStreamSockets(port: number): EventStreamSockets {
  const open = new Set<Socket>();
  const lastEventIds: string[] = [];
  let isDown = false;
  const onRequest = (message: unknown): void => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    if (socket.localPort !== port || !request.url?.startsWith('/api/events')) return;
    lastEventIds.push(String(request.headers['last-event-id'] ?? ''));
    if (isDown) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  diagnostics.subscribe('http.server.request.start', onRequest);
  return {
    lastEventIds,
    drop() {
      for (const socket of open) socket.destroy();
    },
    setDown(down) {
      isDown = down;
    },
    stop() {
      diagnostics.unsubscribe('http.server.request.start', onRequest);
    },
  };
}
