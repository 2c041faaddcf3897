import { consistentReader, resolveTarget } from '../../dynamo/items/item-access';
import { listJournal, readJournalEntry } from '../../journal/journal-files';
import { publishJournalChange } from '../../journal/journal-events';
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
    const work = prepareUndo(ctx.dataDir, target, input.connectionId, entry);
    ctx.operations.start(input.requestId, async (run) => {
      try {
        return await work(run);
      } finally {
        // The undone entry now says it was undone (lastUndo), however the undo ended.
        publishJournalChange(ctx.events, input.connectionId, entry.table);
      }
    });
    return { started: true };
  },
};
