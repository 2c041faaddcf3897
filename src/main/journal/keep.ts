import { AppFailure } from '../../shared/errors';
import { toAppError } from '../core/to-app-error';
import { CONDITIONAL_FAILED } from '../dynamo/writes/write-errors';
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

/** DynamoDB refused the write outright: its condition failed or its transaction was cancelled. */
const REFUSED = new Set<string>([CONDITIONAL_FAILED, 'TransactionCanceledException']);

/**
 * One write under a journal entry, as every door that writes an item at a time makes it (an editor
 * save, an approved agent or MCP write): the intent on disk before the send, struck when DynamoDB
 * refuses the write (it did not happen), replaced by what `pairOf` makes of the answer. A send that
 * fails otherwise (every answer lost, a reset connection, the process killed) leaves the intent for
 * the entry's `finish` to settle by reading the item (resolve-intents.ts). A failed append shows
 * when the entry is finished, as its journalProblem: the write was made all the same.
 */
export async function sendNoted<T>(
  writer: JournalWriter,
  intent: WriteIntent,
  send: () => Promise<T>,
  pairOf: (answer: T) => JournalPair,
): Promise<T> {
  await announceWrites(writer, [intent]);
  let answer: T;
  try {
    answer = await send();
  } catch (error) {
    if (error instanceof AppFailure && REFUSED.has(error.code))
      await writer.refuse(intent.key).catch(() => undefined);
    throw error;
  }
  await writer.add([pairOf(answer)]).catch(() => undefined);
  return answer;
}
