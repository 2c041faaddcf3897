import { consistentReader, resolveTarget } from '../../dynamo/items/item-access';
import { listJournal, readJournalEntry } from '../../journal/journal-files';
import { prepareUndo } from '../../journal/undo';
import type { Handler } from '../dispatcher';

/** journal:* — the undo journal of commits and bulk changes, kept in the data folder. */
export const journalHandlers: {
  'journal:list': Handler<'journal:list'>;
  'journal:undo': Handler<'journal:undo'>;
} = {
  // An entry a killed run left is completed by reading its items: a connection that cannot be
  // reached now leaves those lines unconfirmed, and undo reads them again.
  'journal:list': (input, ctx) =>
    listJournal(ctx.dataDir, input.connectionId, input.table, async (table, key) =>
      consistentReader(await ctx.clients.dynamo(input.connectionId))(table, key),
    ),
  'journal:undo': async (input, ctx) => {
    const entry = await readJournalEntry(ctx.dataDir, input.connectionId, input.entryId);
    const target = await resolveTarget(ctx, input.connectionId, entry.table, 'undo');
    ctx.operations.start(input.requestId, prepareUndo(ctx.dataDir, target, input.connectionId, entry));
    return { started: true };
  },
};
