import { create } from 'zustand';

interface JournalStore {
  /** How many times each table's undo journal changed since start, by connection and table. */
  changes: ReadonlyMap<string, number>;
  /** A `journal` event: an entry was finished or an undo recorded on this table's journal. */
  changed(connectionId: string, table: string): void;
  /** Events were missed (a gap in the stream): any journal may have changed meanwhile. */
  gaps: number;
  missed(): void;
}

/** Table names are data: the key joins the two with a character neither can hold. */
export const journalKey = (connectionId: string, table: string): string => `${connectionId}\u0000${table}`;

/** Which tables' undo journals changed, so an open History reads its list again at once. */
export const useJournalStore = create<JournalStore>()((set) => ({
  changes: new Map(),
  gaps: 0,
  missed() {
    set((state) => ({ gaps: state.gaps + 1 }));
  },
  changed(connectionId, table) {
    set((state) => {
      const key = journalKey(connectionId, table);
      const changes = new Map(state.changes);
      changes.set(key, (changes.get(key) ?? 0) + 1);
      return { changes };
    });
  },
}));
