import { searchText } from '../../../shared/dynamo/value-order';
import type { StreamRecord } from '../../../shared/ipc/stream-record';

/** Records kept for the view: the tail runs for hours, the page must not grow with it. */
export const MAX_RECORDS = 500;

export interface TailBuffer {
  /** Newest first, at most MAX_RECORDS. */
  shown: StreamRecord[];
  /** Arrived while paused, oldest first, at most MAX_RECORDS. */
  held: StreamRecord[];
  /** Records let go to stay within the bound. */
  dropped: number;
  received: number;
}

export const emptyBuffer = (): TailBuffer => ({ shown: [], held: [], dropped: 0, received: 0 });

/** Takes in new records: shown at once, or held while paused; the oldest go past the bound. */
export function receive(buffer: TailBuffer, records: StreamRecord[], isPaused: boolean): TailBuffer {
  const received = buffer.received + records.length;
  if (isPaused) {
    const held = [...buffer.held, ...records];
    const over = Math.max(0, held.length - MAX_RECORDS);
    return { ...buffer, held: held.slice(over), dropped: buffer.dropped + over, received };
  }
  const shown = [...records.slice().reverse(), ...buffer.shown];
  const over = Math.max(0, shown.length - MAX_RECORDS);
  return { ...buffer, shown: shown.slice(0, MAX_RECORDS), dropped: buffer.dropped + over, received };
}

/** Resuming shows what was held, newest first. */
export function release(buffer: TailBuffer): TailBuffer {
  return receive({ ...buffer, held: [], received: buffer.received - buffer.held.length }, buffer.held, false);
}

export type EventName = StreamRecord['eventName'];

/** Event types shown, and text the record's key values must contain (any key attribute). */
export function matches(record: StreamRecord, events: ReadonlySet<EventName>, keyText: string): boolean {
  if (!events.has(record.eventName)) return false;
  const wanted = keyText.trim().toLowerCase();
  if (wanted === '') return true;
  return Object.values(record.keys).some((value) => searchText(value).toLowerCase().includes(wanted));
}
