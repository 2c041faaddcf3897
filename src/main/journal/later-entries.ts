import type { Item } from '../../shared/dynamo/attribute-value';
import { keyOf } from '../../shared/dynamo/validate-item';
import type { JournalEntry, UndoItem } from '../../shared/ipc/journal';
import type { KeySchema } from '../../shared/ipc/tables';
import { keyText } from '../dynamo/transfer/existing-keys';
import { journalPairs, listJournal, type ItemReader } from './journal-files';

export type LaterEntry = NonNullable<UndoItem['laterEntry']>;

/**
 * Which journaled write of DynoTable's own came after `entry` and touched a key, so a refused
 * undo can say "undo that one first". The later entries of the table are read once, on the first
 * refusal, newest first: the first entry to name a key is the newest write to it. A key change
 * touches both its keys.
 */
export function laterEntries(
  dataDir: string,
  connectionId: string,
  entry: JournalEntry,
  keys: KeySchema,
  read?: ItemReader,
): (key: Item) => Promise<LaterEntry | undefined> {
  let index: Promise<Map<string, LaterEntry>> | undefined;
  const build = async (): Promise<Map<string, LaterEntry>> => {
    const newest = new Map<string, LaterEntry>();
    const later = (await listJournal(dataDir, connectionId, entry.table, read)).entries.filter(
      (e) => e.at > entry.at && e.id !== entry.id,
    );
    for (const { id, source, at, reason } of later) {
      for await (const chunk of journalPairs(dataDir, connectionId, id)) {
        for (const pair of chunk) {
          for (const item of [pair.key, pair.after, pair.before]) {
            if (!item) continue;
            const text = keyText(keyOf(item, keys));
            if (!newest.has(text)) newest.set(text, { id, source, at, reason });
          }
        }
      }
    }
    return newest;
  };
  return async (key) => {
    index ??= build().catch(() => new Map());
    return (await index).get(keyText(keyOf(key, keys)));
  };
}
