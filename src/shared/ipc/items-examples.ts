import type { ChannelExample } from './examples';
import type { itemChannels } from './items';
import type { queryChannels } from './query';
import type { transferChannels } from './transfer';

type OwnChannels =
  | keyof typeof queryChannels
  | keyof typeof transferChannels
  | Exclude<keyof typeof itemChannels, 'items:update' | 'items:commit'>;
type ItemExamples = { [C in OwnChannels]: ChannelExample<C> };

const order = {
  PK: { S: 'USER#u1' },
  SK: { S: 'ORDER#o1' },
  status: { S: 'SHIPPED' },
  total: { N: '129.90' },
};

/** docs/API.md examples for the query builder, bulk and transfer channels. */
export const itemExamples: ItemExamples = {
  'query:start': {
    summary:
      "Runs the builder's Query or Scan (table or index, key conditions, filters, projection) into a result set; pages and progress arrive as operation events.",
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'query_R4nd0mId',
      spec: {
        mode: 'query',
        index: 'GSI1',
        partitionKey: { S: 'STATUS#SHIPPED' },
        sortKey: { op: 'begins_with', value: { S: '2026-11' } },
        filter: {
          kind: 'group',
          join: 'AND',
          items: [{ kind: 'condition', path: ['total'], op: '>', value: { N: '100' } }],
        },
        descending: true,
      },
      pageSize: 100,
      maxItems: 50,
      untilMatches: true,
    },
    output: { resultSetId: 'rs_7d1e0b', operation: 'Query' },
    notes:
      'Attribute names always travel as ExpressionAttributeNames. Consistent reads on a GSI are refused with the reason. Pass done.cursor back as `cursor` with the same resultSetId to load more.',
  },
  'bulk:preview': {
    summary:
      'Counts and samples the items a bulk delete or update would touch, with the request sent for the first one.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      source: { resultSetId: 'rs_7d1e0b' },
      action: { type: 'update', set: [{ path: ['status'], value: { S: 'ARCHIVED' } }], remove: [['draft']] },
      conditionOnSeen: true,
    },
    output: {
      count: 1,
      sample: [order],
      request: {
        operation: 'UpdateItem',
        input: {
          TableName: 'DynoTableSample',
          Key: { PK: order.PK, SK: order.SK },
          UpdateExpression: 'SET #n4 = :v4 REMOVE #n5',
          ConditionExpression: '#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 = :v3',
        },
      },
      needsConfirmation: false,
    },
  },
  'bulk:start': {
    summary:
      'Runs a bulk delete or update as an operation: one conditional write per item, with progress and cancel.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'bulk_R4nd0mId',
      source: { items: [order] },
      action: { type: 'delete' },
      conditionOnSeen: true,
      confirmTable: 'DynoTableSample',
    },
    output: { started: true },
    notes:
      'Deleting 10 or more items, or any bulk write on a production connection, needs confirmTable equal to the table name. done.value reports succeeded, conflicts, failed and the failures.',
  },
  'files:choose': {
    summary:
      "Desktop: shows the system's open or save dialog; main keeps the chosen path and answers with a handle for transfer:import / transfer:export (or migration:useModel, purpose 'model').",
    input: { purpose: 'export', format: 'jsonl', suggestedName: 'DynoTableSample.jsonl' },
    output: { fileId: 'f_Zk3pQm9wXr2LtY8vN1cA', name: 'DynoTableSample.jsonl' },
    notes:
      'Answers { cancelled: true } when the dialog is dismissed. A handle lasts an hour and only for its purpose. Browser mode answers NotSupported: it uploads (POST /api/upload/import) and downloads (GET /api/download/export) instead.',
  },
  'transfer:export': {
    summary:
      'Streams a result set (or selected rows) or a SQL result (sqlResultId) to a file as DynamoDB JSON, JSON Lines, CSV or a plain JSON array.',
    input: {
      requestId: 'export_R4nd0mId',
      resultSetId: 'rs_7d1e0b',
      format: 'jsonl',
      fileId: 'f_Zk3pQm9wXr2LtY8vN1cA',
    },
    output: { started: true },
    notes:
      "Written to <path>.part and renamed when complete; no row cap. A result set's CSV has a type row (import reads it back); a SQL result's CSV is a plain table in SELECT order. done.value is { path, items, bytes }. Browser mode streams the same bytes as a download (GET /api/download/export?resultSetId= or ?sqlResultId=).",
  },
  'transfer:exportTable': {
    summary:
      'Reads a whole table or index (every page of a Scan) straight to a file as DynamoDB JSON, JSON Lines or CSV, with progress, cancel and resume.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'tableexport_R4nd0mId',
      format: 'csv',
      fileId: 'f_Zk3pQm9wXr2LtY8vN1cA',
    },
    output: { started: true, exportId: 'texp-m4x1k2-9f3a2b1c' },
    notes:
      "Costs a full Scan: about one read unit per 8 KB of the table (eventually consistent). Pages are kept in the data folder as they arrive, with each segment's place; a cancel, a crash or expired credentials keep both, and transfer:resumeTableExport goes on from there. The file appears, complete, only at the end. done.value is { exportId, path, items, bytes, consumedCapacity }.",
  },
  'transfer:resumeTableExport': {
    summary: 'Goes on with a stopped whole-table export where it stopped, with the settings it started with.',
    input: { requestId: 'tableexport_R3sum3Id', exportId: 'texp-m4x1k2-9f3a2b1c' },
    output: { started: true, exportId: 'texp-m4x1k2-9f3a2b1c' },
    notes: 'The pages read before the stop are not read again. Refused while the same export is running.',
  },
  'transfer:tableExports': {
    summary: 'The whole-table exports of a table that stopped before completing, newest first.',
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: [
      {
        exportId: 'texp-m4x1k2-9f3a2b1c',
        connectionId: 'playground',
        table: 'DynoTableSample',
        format: 'csv',
        path: '/home/you/Downloads/DynoTableSample.csv',
        items: 12000,
        consumedCapacity: 181.5,
        sourceCount: 40000,
        savedAt: '2026-12-06T18:40:00.000Z',
        state: 'stopped',
      },
    ],
  },
  'transfer:forgetTableExport': {
    summary: 'Forgets a stopped whole-table export: its place and the pages read so far are deleted.',
    input: { exportId: 'texp-m4x1k2-9f3a2b1c' },
    output: { removed: true },
  },
  'transfer:import': {
    summary:
      'Imports DynamoDB JSON, JSON Lines or CSV into a table, or dry-runs it to show what would be written.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'import_R4nd0mId',
      format: 'jsonl',
      source: { fileId: 'f_Q7eR1tY5uI9oP3aS6dF2' },
      dryRun: true,
      mode: 'create-only',
    },
    output: { started: true },
    notes:
      'create-only puts never replace an existing item. done.value counts total, written (or would write), existing, invalid and failed, with failures by line.',
  },
  'transfer:resumeImport': {
    summary:
      'Goes on with a stopped import after the last line it wrote, with the file, format and mode it started with.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'import_R3sum3d1',
      jobId: 'import-m1x2y3-1a2b3c4d',
    },
    output: { started: true },
    notes:
      'FileChanged when the file is not the one the import read (its size or modification time differ); FileNotFound when it is gone; ReadOnlyConnection and ConfirmationRequired as for transfer:import. done.value reports the lines read by this run; jobs:stopped counts the whole import.',
  },
  'resultsets:view': {
    summary:
      'Sorts and filters the rows fetched so far in the result-set worker, so the renderer never holds them all.',
    input: {
      resultSetId: 'rs_7d1e0b',
      spec: {
        sort: [{ column: 'total', descending: true }],
        text: 'shipped',
        entities: ['ORDER'],
        keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
      },
      viewId: 'grid',
      revision: 7,
    },
    output: { viewId: 'grid', revision: 7, seq: 31, total: 412 },
    notes:
      "A named view (`viewId`) is replaced only by another build of that name, and not by one whose `revision` is older than the one held, so calls may arrive in any order; `seq` orders every answer that carries sizes (this, resultsets:collections, `resultsets` events), the highest being the newest. Read the view with resultsets:window and its viewId. Numbers sort by exact value; missing values sort last. With `collections: true` (and `keys`) the view groups rows into item collections: windows then hold a header per collection (`headers`, each with its item count and counts per entity type) and each row's item position (`positions`); a collapsed collection shows only its header.",
  },
  'resultsets:collections': {
    summary:
      'Collapses or expands item collections of a collection view in the result-set worker, or reports its sizes.',
    input: {
      resultSetId: 'rs_7d1e0b',
      viewId: 'grid',
      collapse: { partitionKey: { S: 'USER#u1' }, isCollapsed: true },
    },
    output: {
      total: 1180,
      collections: 100,
      items: 1200,
      entities: { USER: 100, ORDER: 1000, PAYMENT: 100 },
      at: 0,
      seq: 32,
    },
    notes:
      'Rows after `at` moved: read them again with resultsets:window. `{ all: true, isCollapsed }` changes every collection, also those a running read adds later. The collapsed state belongs to the result set, so a new view of it (another sort, item collections off and on) keeps it.',
  },
};
