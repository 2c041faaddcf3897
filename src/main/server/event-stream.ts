import type { IncomingMessage, ServerResponse } from 'node:http';
import { STREAM_GAP_EVENT, type StreamGap } from '../../shared/ipc/event-stream';
import type { EventReplayLog, LoggedEvent } from './event-replay';

/** A client that stops reading would make us buffer without end; past this we drop it and it reconnects. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const GAP_MESSAGE =
  'The connection to DynoTable was down for longer than it can catch up on, so some live updates were missed. Operations still running carry on here; reload the page to see everything as it is now.';

/**
 * GET /api/events: Server-Sent Events, one `id:` and one `data:` line of OperationEvent JSON per
 * event (the default "message" event, so EventSource.onmessage receives it). A reconnecting
 * EventSource sends the last id back as Last-Event-ID and first gets everything it missed; when
 * the log no longer reaches back that far, what is kept is followed by a `gap` event. Comment
 * lines keep proxies and SSH tunnels from closing an idle stream.
 */
export function openEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  log: EventReplayLog,
  heartbeatMs: number,
  onClose: () => void,
): () => void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  response.write(': connected\nretry: 2000\n\n');
  let closed = false;
  const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    onClose();
    if (!response.writableEnded) response.end();
  };
  const send = (event: LoggedEvent): void => {
    if (closed) return;
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      close();
      return;
    }
    response.write(`id: ${event.id}\ndata: ${event.data}\n\n`);
  };
  // Subscribe and replay in one tick: no event can be published between the two.
  const unsubscribe = log.subscribe(send);
  const replay = log.replay(lastEventId(request));
  for (const event of replay.events) send(event);
  if (replay.isGap && !response.writableEnded) {
    const gap: StreamGap = { message: GAP_MESSAGE, running: replay.running };
    // No id line: the client's Last-Event-ID stays that of the last real event.
    response.write(`event: ${STREAM_GAP_EVENT}\ndata: ${JSON.stringify(gap)}\n\n`);
  }
  request.on('close', close);
  response.on('error', close);
  return close;
}

function lastEventId(request: IncomingMessage): string | undefined {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
}
