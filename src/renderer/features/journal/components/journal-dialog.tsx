import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import type { JournalEntry } from '../../../../shared/ipc/journal';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { countOf, formatDate } from '../../../ui/format';
import { historyOffers, type HistoryOffer } from '../history-offers';
import { journalKey, useJournalStore } from '../store';
import { redoTitle, UndoEntry } from './undo-entry';

export interface JournalDialogProps {
  connection: Connection;
  table: string;
  onClose(): void;
}

function when(iso: string): string {
  return formatDate(iso, { seconds: true });
}

function lastUndoText(
  entry: JournalEntry,
  offer: HistoryOffer | undefined,
  byId: ReadonlyMap<string, JournalEntry>,
): string | undefined {
  if (offer?.type === 'elsewhere') {
    // The undo (or redo) of a listed write: one button for both, on that write's row.
    const first = byId.get(offer.entryId);
    const what = first ? `"${first.reason}" of ${when(first.at)}` : 'the write it undid';
    return offer.verb === 'redo'
      ? `To write ${what} again, use Redo on it.`
      : `To undo ${what} again, use Undo on it.`;
  }
  const undo = entry.lastUndo;
  if (!undo) return undefined;
  if (offer?.type === 'undo' && offer.redoneAt)
    return `Undone ${when(undo.at)}, redone ${when(offer.redoneAt)}`;
  const refused = undo.conflicts + undo.failed;
  return `${undo.isCancelled ? 'Undo cancelled' : 'Undone'} ${when(undo.at)}: ${countOf(undo.restored, 'item')} put back${
    refused > 0 ? `, ${refused} left as they are` : ''
  }`;
}

/**
 * The entry's button: Undo while its writes are in place; once undone whole, Redo (undoing the
 * undo's own entry), never a second Undo that would find nothing to do.
 */
function EntryAction({
  connection,
  entry,
  offer,
}: {
  connection: Connection;
  entry: JournalEntry;
  offer?: HistoryOffer;
}) {
  const what = `"${entry.reason}" of ${when(entry.at)}`;
  if (offer?.type === 'undone' || offer?.type === 'elsewhere') return null;
  if (offer?.type === 'redo')
    return (
      <UndoEntry
        key={`redo ${offer.undoEntryId}`}
        connection={connection}
        entryId={offer.undoEntryId}
        verb="Redo"
        label={`Redo ${what}`}
        title={redoTitle}
      />
    );
  return <UndoEntry key="undo" connection={connection} entryId={entry.id} label={`Undo ${what}`} />;
}

interface JournalRowProps {
  connection: Connection;
  entry: JournalEntry;
  offer: HistoryOffer | undefined;
  byId: ReadonlyMap<string, JournalEntry>;
}

function JournalRow({ connection, entry, offer, byId }: JournalRowProps) {
  const undone = lastUndoText(entry, offer, byId);
  const row = useRef<HTMLLIElement>(null);
  const hasFocus = useRef(false);
  // Undone, the row's Undo becomes Redo (and back): focus the user had in the row goes to the new
  // button instead of falling to the page with the old one.
  const action = offer?.type ?? 'undo';
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (hasFocus.current && (active === null || active === document.body))
      row.current?.querySelector<HTMLElement>('.undo-entry button')?.focus();
  }, [action]);
  return (
    <li
      className="journal-entry"
      ref={row}
      onFocus={() => {
        hasFocus.current = true;
      }}
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node && row.current?.contains(event.relatedTarget)))
          hasFocus.current = event.relatedTarget === null;
      }}
    >
      {/* The entry's own words say what was done and by whom ("Saved in the item editor",
          "Import from orders.csv (overwriting)"): said once. A title made from the action
          and a tag of the source beside them said one save three times over. */}
      <div className="journal-line">
        <strong className="journal-reason">{entry.reason}</strong>
        <span>{countOf(entry.count, 'item')}</span>
        <time dateTime={entry.at} className="muted">
          {when(entry.at)}
        </time>
      </div>
      {undone ? <p className="muted journal-undone">{undone}</p> : null}
      {entry.isBeforeAsRead ? (
        <p className="muted">
          This bulk update did not check the items were unchanged since read; undo puts back the values as
          they were read.
        </p>
      ) : null}
      <EntryAction connection={connection} entry={entry} offer={offer} />
    </li>
  );
}

/** The table's recent commits and bulk changes on this connection, newest first, each undoable. */
export function JournalDialog({ connection, table, onClose }: JournalDialogProps) {
  const [entries, setEntries] = useState<JournalEntry[]>();
  const [kept, setKept] = useState<string>('newest 200 per connection, none older than 30 days');
  // Files the journal could not read (set aside, kept) and a settings file it could not use.
  const [notes, setNotes] = useState<string[]>([]);
  const [error, setError] = useState<AppError>();
  const [version, setVersion] = useState(0);
  // Any write or undo journaled on this table while History is open lists at once.
  const changes = useJournalStore((s) => s.changes.get(journalKey(connection.id, table)) ?? 0);
  const gaps = useJournalStore((s) => s.gaps);
  useEffect(() => {
    let isCurrent = true;
    void call('journal:list', { connectionId: connection.id, table }).then((r) => {
      if (!isCurrent) return;
      if (!r.ok) {
        setError(r.error);
        return;
      }
      // Newest first, whatever order the list came in: the write just made is on top.
      setEntries([...r.value.entries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)));
      const { limits, limitsProblem, setAside = [] } = r.value;
      if (limits)
        setKept(
          `newest ${limits.maxEntries} per connection, none older than ${limits.maxAgeDays} days, at most ${limits.maxMegabytes} MB`,
        );
      setNotes([
        ...(limitsProblem ? [limitsProblem] : []),
        ...setAside.map((a) => `${a.reason} Kept at ${a.file}.`),
      ]);
    });
    return () => {
      isCurrent = false;
    };
  }, [connection.id, table, version, changes, gaps]);
  const offers = historyOffers(entries ?? []);
  const byId = new Map((entries ?? []).map((entry) => [entry.id, entry]));
  return (
    <Dialog
      title={`Undo history — ${table}`}
      onClose={onClose}
      width="lg"
      footer={
        <>
          <Button onClick={() => setVersion((v) => v + 1)}>Reload list</Button>
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <p className="muted">
        Undo puts each item back only while it is still exactly what that write left; an item someone changed
        since is left as it is and shown next to yours. Redo, on an entry undone, writes it again the same
        way. Kept in DynoTable&apos;s data folder ({kept}; set in journal/settings.json there).
      </p>
      {notes.map((note) => (
        <p key={note} className="muted" role="status">
          {note}
        </p>
      ))}
      {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
      {entries === undefined && !error ? <p className="muted">Loading…</p> : null}
      {entries?.length === 0 ? <p className="muted">No writes to {table} on this connection yet.</p> : null}
      {entries && entries.length > 0 ? (
        <ol className="journal-list" aria-label="Recent writes">
          {entries.map((entry) => (
            <JournalRow
              key={entry.id}
              connection={connection}
              entry={entry}
              offer={offers.get(entry.id)}
              byId={byId}
            />
          ))}
        </ol>
      ) : null}
    </Dialog>
  );
}
