import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationEvent } from '../../shared/ipc';

export interface EventFeed {
  subscribe(listener: (event: OperationEvent) => void): () => void;
}

/** A client that stops reading would make us buffer without end; past this we drop it and it reconnects. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * GET /api/events: Server-Sent Events, one `data:` line of OperationEvent JSON per event (the
 * default "message" event, so EventSource.onmessage receives it). Comment lines keep proxies and
 * SSH tunnels from closing an idle stream.
 */
export function openEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  events: EventFeed,
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
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    onClose();
    if (!response.writableEnded) response.end();
  };
  const unsubscribe = events.subscribe((event) => {
    if (closed) return;
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      close();
      return;
    }
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();
  request.on('close', close);
  response.on('error', close);
  return close;
}
