import { JOURNAL_REQUEST_ID } from '../../shared/ipc/operations';
import type { EventBus } from '../core/events';
import type { JournalWriter } from './journal-files';

let seq = 0;

/** Tells every window that a table's undo journal changed, so an open History lists it at once. */
export function publishJournalChange(events: EventBus, connectionId: string, table: string): void {
  events.publish({ type: 'journal', requestId: JOURNAL_REQUEST_ID, seq: seq++, connectionId, table });
}

/** The writer, telling the windows once its entry is finished (none is kept when nothing was written). */
export function toldWhenFinished(writer: JournalWriter, tell: () => void): JournalWriter {
  return {
    ...writer,
    async finish() {
      const entry = await writer.finish();
      if (entry) tell();
      return entry;
    },
  };
}
