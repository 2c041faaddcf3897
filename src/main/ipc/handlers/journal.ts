import { resolveTarget } from '../../dynamo/items/item-access';
import { listJournal, readJournalEntry } from '../../journal/journal-files';
import { prepareUndo } from '../../journal/undo';
import type { Handler } from '../dispatcher';

/** journal:* — the undo journal of commits and bulk changes, kept in the data folder. */
export const journalHandlers: {
  'journal:list': Handler<'journal:list'>;
  'journal:undo': Handler<'journal:undo'>;
} = {
  'journal:list': (input, ctx) => listJournal(ctx.dataDir, input.connectionId, input.table),
  'journal:undo': async (input, ctx) => {
    const entry = await readJournalEntry(ctx.dataDir, input.connectionId, input.entryId);
    const target = await resolveTarget(ctx, input.connectionId, entry.table, 'undo');
    ctx.operations.start(input.requestId, prepareUndo(ctx.dataDir, target, input.connectionId, entry));
    return { started: true };
  },
};
