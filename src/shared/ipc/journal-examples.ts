import type { ChannelExample } from './examples';
import type { journalChannels } from './journal';

type JournalExamples = { [C in keyof typeof journalChannels]: ChannelExample<C> };

/** docs/API.md examples for the undo journal. */
export const journalExamples: JournalExamples = {
  'journal:list': {
    summary:
      "The connection's newest undo journal entries (commits of staged changes and bulk changes), newest first, optionally of one table.",
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: {
      entries: [
        {
          id: 'jmi5x2k7q0a1b2c3d4e',
          at: '2026-12-01T18:02:11.402Z',
          table: 'DynoTableSample',
          action: 'commit',
          count: 3,
        },
        {
          id: 'jmi5wz9r1f5e6d7c8b9',
          at: '2026-12-01T17:58:40.118Z',
          table: 'DynoTableSample',
          action: 'bulk-update',
          count: 40,
          lastUndo: { at: '2026-12-01T18:00:02.950Z', restored: 39, conflicts: 1, failed: 0 },
        },
      ],
    },
    notes:
      'Entries live in the data folder (journal/<connection>/), survive a restart, and the newest 200 per connection are kept. items:commit and bulk:start name the entry they made as journalId.',
  },
  'journal:undo': {
    summary:
      'Puts back what one entry wrote, item by item, only while each item is still exactly what the entry wrote; runs as an operation with progress and cancel.',
    input: { connectionId: 'playground', entryId: 'jmi5x2k7q0a1b2c3d4e', requestId: 'undo_R4nd0mId' },
    output: { started: true },
    notes:
      'done.value is an UndoReport: restored, alreadyRestored, conflicts, failed, and per refused item its key, what the entry wrote, what is stored now and what undo would have put back. Refused on a read-only connection (ReadOnlyConnection). Running it again after a cancel or failure is safe: items already put back count as restored.',
  },
};
