import type { OperationEvent } from '../../shared/ipc';

/** Events that belong to no operation: they never end, so they are never "running". */
const NOT_OPERATIONS = new Set<OperationEvent['type']>(['resultsets', 'written', 'journal', 'proposals']);

export interface EventFeed {
  subscribe(listener: (event: OperationEvent) => void, options?: { isRecorder?: boolean }): () => void;
  /** Counts an open tab, so main knows someone can answer a prompt (an MFA code, say). */
  watch(): () => void;
}

/** One event as every stream sends it: its SSE id and its JSON, serialised once. */
export interface LoggedEvent {
  id: number;
  data: string;
  bytes: number;
}

export interface ReplayLimits {
  maxEvents: number;
  maxBytes: number;
}

/**
 * What a (re)connecting stream is owed. `isGap`: the client's last event is older than the log,
 * so `events` is only what is still kept and `running` names the operations not yet ended.
 */
export type Replay =
  { isGap: false; events: LoggedEvent[] } | { isGap: true; events: LoggedEvent[]; running: string[] };

/**
 * A flaky network or a sleeping laptop drops the event stream mid-scan; the browser reconnects
 * two seconds later, and without a log every event in between — a scan's `done` included —
 * would be gone. The log numbers every event once for all streams (the token is per launch, so
 * every page of it sees the same events) and keeps the newest, bounded by count and bytes, so a
 * reconnect resumes exactly after the browser's Last-Event-ID.
 */
export class EventReplayLog {
  private readonly kept: LoggedEvent[] = [];
  private keptBytes = 0;
  private lastId = 0;
  /** Operations seen and not ended: what a client that missed events can no longer know. */
  private readonly running = new Set<string>();
  private readonly listeners = new Set<(event: LoggedEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: EventFeed,
    private readonly limits: ReplayLimits,
  ) {
    // The log records for the whole launch; only the tabs streaming from it are viewers.
    this.unsubscribe = feed.subscribe((event) => this.append(event), { isRecorder: true });
  }

  /** Live events from now on; combine with replay() in the same tick so none falls between. */
  subscribe(listener: (event: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    const unwatch = this.feed.watch();
    return () => {
      this.listeners.delete(listener);
      unwatch();
    };
  }

  /** Everything after `lastEventId` (the header a reconnecting EventSource sends). */
  replay(lastEventId: string | undefined): Replay {
    if (lastEventId === undefined) return { isGap: false, events: [] };
    const after = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
    const firstKept = this.lastId - this.kept.length + 1;
    // An id we never sent (not a number, or from the future) says nothing about what was missed.
    if (Number.isNaN(after) || after > this.lastId)
      return { isGap: true, events: [], running: [...this.running] };
    const events = this.kept.slice(Math.max(0, after - firstKept + 1));
    if (after >= firstKept - 1) return { isGap: false, events };
    return { isGap: true, events, running: [...this.running] };
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private append(event: OperationEvent): void {
    const data = JSON.stringify(event);
    const logged = { id: ++this.lastId, data, bytes: Buffer.byteLength(data) };
    const isEnd = event.type === 'done' || event.type === 'cancelled' || event.type === 'error';
    if (isEnd) this.running.delete(event.requestId);
    else if (!NOT_OPERATIONS.has(event.type)) this.running.add(event.requestId);
    this.kept.push(logged);
    this.keptBytes += logged.bytes;
    // The newest event always stays, even one larger than the byte budget on its own.
    while (
      this.kept.length > 1 &&
      (this.kept.length > this.limits.maxEvents || this.keptBytes > this.limits.maxBytes)
    ) {
      this.keptBytes -= this.kept.shift()?.bytes ?? 0;
    }
    for (const listener of this.listeners) listener(logged);
  }
}
