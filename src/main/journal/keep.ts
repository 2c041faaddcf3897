import { toAppError } from '../core/to-app-error';
import type { JournalWriter, JournalPair } from './journal-files';

export interface Kept {
  journalId?: string;
  /** Why the writes could not be kept for undo; they were made all the same. */
  journalProblem?: string;
}

/**
 * Finishes a journal entry without ever failing the write it describes: the items are in the
 * table by now, so a full disk must not turn a successful commit into an error.
 */
export async function keepForUndo(writer: JournalWriter, pairs: JournalPair[] = []): Promise<Kept> {
  try {
    await writer.add(pairs);
    const entry = await writer.finish();
    return entry ? { journalId: entry.id } : {};
  } catch (error) {
    return {
      journalProblem: `The writes were made, but could not be kept for undo: ${toAppError(error).message}`,
    };
  }
}
