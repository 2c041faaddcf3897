import { operationEventSchema, type OperationEvent } from '../../shared/ipc';
import { STREAM_GAP_EVENT, streamGapSchema, type StreamGap } from '../../shared/ipc/event-stream';
import { safeParseKeepingProtoKeys } from '../../shared/dynamo/proto-keys';
import { isItem } from '../../shared/dynamo/attribute-value';
import { desktopBridge } from './bridge';

/**
 * The one module that receives main→renderer operation events. Desktop: the preload's onEvent.
 * Browser mode: a server-sent event stream authenticated by the same cookie as calls; when it
 * drops, EventSource reconnects with the last event's id and the server replays what was missed,
 * or says with a `gap` event that it no longer can. Which store takes which event is decided
 * above every feature, in ../shell/event-routing.ts: ipc/ imports no feature.
 */
/**
 * The stream calls wait for until it first opens. It outlives a stream stopped before it opened
 * (React's StrictMode mounts twice in development and closes the first one), so calls started
 * then follow the next stream instead of waiting out the timeout.
 */
let opening: { promise: Promise<void>; resolve: () => void } | undefined;

function pendingOpen(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * Resolves once the browser-mode event stream is connected (at once in the desktop app). Main
 * only forwards events to streams that are connected, so an operation started before the
 * EventSource opened could lose its early events — even its `done` — and its view would wait
 * forever. Calls wait for this (bounded), so every operation starts with someone listening.
 */
export function eventStreamReady(timeoutMs = 5_000): Promise<void> {
  if (!opening) return Promise.resolve();
  return Promise.race([opening.promise, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}

export interface EventReceivers {
  deliver(event: OperationEvent): void;
  /** The server could no longer replay what a reconnecting stream missed. */
  gap(gap: StreamGap): void;
}

/** Starts receiving events; returns the function that stops it. */
export function startEventStream({ deliver, gap }: EventReceivers): () => void {
  const bridge = desktopBridge();
  if (bridge) return bridge.onEvent(deliver);
  if (typeof EventSource === 'undefined') return () => undefined;

  const waiting = (opening ??= pendingOpen());
  const source = new EventSource('/api/events', { withCredentials: true });
  source.onopen = () => {
    waiting.resolve();
    if (opening === waiting) opening = undefined;
  };
  source.onmessage = (message: MessageEvent<string>) => {
    const event = checkedEvent(parseJson(message.data));
    if (event) deliver(event);
  };
  source.addEventListener(STREAM_GAP_EVENT, (message: MessageEvent<string>) => {
    const result = streamGapSchema.safeParse(parseJson(message.data));
    if (result.success) gap(result.data);
  });
  return () => source.close();
}

/**
 * The stream crosses a process boundary: its events are checked like any other input. Events
 * carry items (a read's first rows, rows a write rewrote), whose `__proto__` names are data. A
 * read's first rows ride on its first page event on the way to a table's first paint, so they
 * are checked by isItem (the same shapes as the schema's, at a fraction of zod's cost) and the
 * rest of that event by the schema.
 */
export function checkedEvent(data: unknown): OperationEvent | undefined {
  if (isPageWithFirst(data)) {
    const { first, ...rest } = data;
    const result = operationEventSchema.safeParse(rest);
    if (!result.success || result.data.type !== 'page' || !isFirstWindow(first)) return undefined;
    return { ...result.data, first: { rows: first.rows, columns: first.columns } };
  }
  const result = safeParseKeepingProtoKeys(operationEventSchema, data);
  return result.success ? result.data : undefined;
}

type PageEvent = Extract<OperationEvent, { type: 'page' }>;

function isPageWithFirst(data: unknown): data is Record<string, unknown> & { first: unknown } {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'page' &&
    'first' in data
  );
}

function isFirstWindow(first: unknown): first is NonNullable<PageEvent['first']> {
  if (typeof first !== 'object' || first === null) return false;
  const { rows, columns } = first as { rows?: unknown; columns?: unknown };
  return (
    Array.isArray(rows) &&
    rows.every(isItem) &&
    Array.isArray(columns) &&
    columns.every((column) => typeof column === 'string')
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
