import type { ChannelExample } from './examples';
import type { journalChannels } from './journal';
import type { workspaceChannels } from './workspace';

type OwnChannels = keyof typeof journalChannels | keyof typeof workspaceChannels;
type JournalExamples = { [C in OwnChannels]: ChannelExample<C> };

const workspace = {
  version: 1 as const,
  activeConnectionId: 'playground',
  connections: [
    {
      connectionId: 'playground',
      tables: [
        {
          name: 'DynoTableSample',
          view: 'items',
          form: { mode: 'query', partitionKey: 'USER#u1', sortOp: 'begins_with', sortValue: 'ORDER#' },
        },
      ],
      active: 'table:DynoTableSample',
      sql: {
        tabs: [
          {
            id: 'q-mi5x2k7q-1-a1b2',
            title: 'Query 1',
            text: "SELECT * FROM DynoTableSample WHERE PK = 'USER#u1'",
          },
        ],
        active: 'q-mi5x2k7q-1-a1b2',
      },
    },
    {
      connectionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      tables: [],
      active: 'tool:sql',
      regions: ['eu-west-1', 'us-west-2'],
      sqlRegion: 'us-west-2',
    },
  ],
};

/** docs/API.md examples for the undo journal and the saved workspace. */
export const journalExamples: JournalExamples = {
  'journal:list': {
    summary:
      "The connection's newest undo journal entries (every journaled write: editor, grid, bulk, import, copy, fix, Health fix, undo, agent, MCP), newest first, with source, reason, time, table and item count; optionally of one table.",
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: {
      entries: [
        {
          id: 'jmi5x2k7q0a1b2c3d4e',
          at: '2026-12-01T18:02:11.402Z',
          table: 'DynoTableSample',
          action: 'commit',
          source: 'editor',
          reason: 'Saved in the item editor',
          count: 1,
        },
        {
          id: 'jmi5wz9r1f5e6d7c8b9',
          at: '2026-12-01T17:58:40.118Z',
          table: 'DynoTableSample',
          action: 'bulk-update',
          source: 'bulk',
          reason: 'Bulk update of 40 items',
          count: 40,
          lastUndo: { at: '2026-12-01T18:00:02.950Z', restored: 39, conflicts: 1, failed: 0 },
        },
      ],
      limits: { maxEntries: 200, maxAgeDays: 30, maxMegabytes: 500 },
    },
    notes:
      'Entries live in the data folder (journal/<connection>/) and survive a restart; journal/settings.json bounds them per connection (maxEntries 200, maxAgeDays 30, maxMegabytes 500 by default), and limits says which bounds are in force. A file that cannot be read is moved to set-aside/ and named in setAside with the reason. The writes name the entry they made as journalId (items:create/update/delete/commit, bulk:start, transfer:import, copy:start, migration:fixRun, and the report of journal:undo). Purge is not journaled.',
  },
  'journal:undo': {
    summary:
      'Puts back what one entry wrote, item by item, only while each item is still exactly what the entry wrote; runs as an operation with progress and cancel.',
    input: { connectionId: 'playground', entryId: 'jmi5x2k7q0a1b2c3d4e', requestId: 'undo_R4nd0mId' },
    output: { started: true },
    notes:
      'done.value is an UndoReport: restored, alreadyRestored, conflicts, failed, and per refused item its key, what the entry wrote, what is stored now, what undo would have put back and, when a later journaled write of the same user changed the item, that entry (laterEntry: id, source, at, reason) to undo first. The writes of the undo are an entry of their own (journalId). Refused on a read-only connection (ReadOnlyConnection). Running it again after a cancel or failure is safe: items already put back count as restored.',
  },
  'workspace:load': {
    summary:
      "The workspace as it was left: open connection, its tabs, each table view and query form, the SQL text and the SQL tab's region.",
    input: {},
    output: { snapshot: workspace },
    notes: 'null on a first start. Never holds credentials or item data. Kept in <data>/workspace.json.',
  },
  'workspace:save': {
    summary: 'Replaces the saved workspace; the window sends it shortly after each change.',
    input: { snapshot: workspace },
    output: { saved: true },
  },
};
