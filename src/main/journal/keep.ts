import { AppFailure } from '../../shared/errors';
import { toAppError } from '../core/to-app-error';
import type { JournalWriter, JournalPair, WriteIntent } from './journal-files';

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

/**
 * Notes the writes about to be sent in the journal, on disk before the first is sent: a run killed
 * meanwhile leaves them for the next start to read back (resolve-intents.ts). A journal that cannot
 * be written stops the writes before anything is sent, so no write goes out that undo would miss.
 */
export async function announceWrites(writer: JournalWriter, intents: WriteIntent[]): Promise<void> {
  try {
    await writer.intend(...intents);
  } catch (error) {
    const { code, message, retryable } = toAppError(error);
    throw new AppFailure(
      code,
      `Nothing was written: the undo journal could not note the write before it was sent. ${message}`,
      retryable,
    );
  }
}
