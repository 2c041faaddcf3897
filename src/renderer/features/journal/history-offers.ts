import type { JournalEntry } from '../../../shared/ipc/journal';

/**
 * What History offers for one entry. `undo`: its writes are in place (never undone, undone only in
 * part or cancelled, or undone and then redone). `redo`: undone whole, and the undo's own entry,
 * listed here, puts the writes back (the journal's one way to redo: undoing that entry). `undone`:
 * undone whole, with that entry gone from the list (pruned, or written before undos named it).
 * `elsewhere`: the entry is the whole undo (or redo) of a listed entry, so its own Undo would do
 * what that entry's button does; the button is shown once, on the write that began the chain
 * (`entryId`), whose offer `verb` names.
 */
export type HistoryOffer =
  | { type: 'undo'; redoneAt?: string }
  | { type: 'redo'; undoEntryId: string }
  | { type: 'undone' }
  | { type: 'elsewhere'; entryId: string; verb: 'undo' | 'redo' };

type Undo = JournalEntry['lastUndo'];

/** An undo that put every item back: cancelled or refused in part, the entry can be undone again. */
function isWhole(undo: Undo): undo is NonNullable<Undo> {
  return undo !== undefined && !undo.isCancelled && undo.conflicts + undo.failed === 0;
}

/**
 * Each listed entry's offer, by id. An entry is undone when its last undo was whole and that
 * undo's entry is not undone in turn (an undo of an undo is a redo); the chain runs forward in
 * time, each undo newer than what it undid, and is followed within the list only.
 */
export function historyOffers(entries: readonly JournalEntry[]): Map<string, HistoryOffer> {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const undoEntryOf = (entry: JournalEntry): JournalEntry | undefined => {
    const undo = entry.lastUndo;
    return isWhole(undo) && undo.journalId ? byId.get(undo.journalId) : undefined;
  };
  const undone = new Map<string, boolean>();
  const isUndone = (entry: JournalEntry, seen = new Set<string>()): boolean => {
    const known = undone.get(entry.id);
    if (known !== undefined) return known;
    seen.add(entry.id);
    const undoEntry = undoEntryOf(entry);
    // A loop cannot come from the journal (each undo's id is new); one would read as not redone.
    const isRedone = undoEntry !== undefined && !seen.has(undoEntry.id) && isUndone(undoEntry, seen);
    const answer = isWhole(entry.lastUndo) && !isRedone;
    undone.set(entry.id, answer);
    return answer;
  };
  const offers = new Map<string, HistoryOffer>();
  for (const entry of entries) {
    const undoEntry = undoEntryOf(entry);
    if (!isUndone(entry)) {
      const redoneAt = undoEntry?.lastUndo?.at;
      offers.set(entry.id, { type: 'undo', ...(redoneAt ? { redoneAt } : {}) });
    } else offers.set(entry.id, undoEntry ? { type: 'redo', undoEntryId: undoEntry.id } : { type: 'undone' });
  }
  // Undoing an entry's whole undo is its redo, and undoing that its undo again: every entry down
  // the chain offers what the chain's first write offers. Said there only.
  const undoneBy = new Map<string, JournalEntry>();
  for (const entry of entries) {
    const undoEntry = undoEntryOf(entry);
    if (undoEntry && undoEntry.id !== entry.id) undoneBy.set(undoEntry.id, entry);
  }
  for (const entry of entries) {
    let first = undoneBy.get(entry.id);
    const seen = new Set([entry.id]);
    while (first && !seen.has(first.id) && undoneBy.has(first.id)) {
      seen.add(first.id);
      first = undoneBy.get(first.id);
    }
    const offer = first ? offers.get(first.id) : undefined;
    if (first && (offer?.type === 'undo' || offer?.type === 'redo'))
      offers.set(entry.id, { type: 'elsewhere', entryId: first.id, verb: offer.type });
  }
  return offers;
}
