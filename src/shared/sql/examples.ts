import type { ChannelExample } from '../ipc/examples';
import type { sqlChannels } from '../ipc/sql';
import type { EntityView } from './catalog';

type SqlExamples = { [C in keyof typeof sqlChannels]: ChannelExample<C> };

const connectionId = 'playground';
const orders: EntityView = {
  name: 'orders',
  table: 'DynoTableSample',
  conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
  source: 'detected',
  share: 0.31,
};
const statement =
  'SELECT u.name, COUNT(*) AS orders, SUM(o.total) AS revenue\nFROM orders o JOIN users u ON o.PK = u.PK\nGROUP BY u.name ORDER BY revenue DESC';

/** Examples of the `sql:*` channels for docs/API.md (checked against the schemas by the API docs test). */
export const sqlExamples: SqlExamples = {
  'sql:catalog': {
    summary:
      'Tables of the connection, their entity views (detected from key prefixes, plus the ones saved with the connection) and attribute paths seen, for the editor.',
    input: { connectionId },
    output: {
      tables: [
        {
          name: 'DynoTableSample',
          keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
          indexes: [],
          itemCount: 466,
          sizeBytes: 151_000,
          itemsPerPartition: 4.2,
        },
      ],
      views: [orders],
      attributes: {
        DynoTableSample: ['PK', 'SK', 'entity', 'total', 'address.city'],
        'DynoTableSample.orders': ['PK', 'SK', 'total', 'status'],
      },
      loadedAt: '2026-11-06T09:00:00.000Z',
      sampleCapacity: 12.5,
    },
    notes:
      'Views come from one Scan page (100 items) per table; the read capacity it used is reported as sampleCapacity. `refresh: true` reads them again.',
  },
  'sql:plan': {
    summary:
      'The DynamoDB calls a statement will make, with estimated items and read capacity, before anything is read.',
    input: { connectionId, sql: "SELECT * FROM DynoTableSample WHERE PK = 'USER#u1'" },
    output: {
      fetches: [
        {
          id: 'f1',
          serves: ['DynoTableSample'],
          call: { operation: 'Query', table: 'DynoTableSample', keyCondition: "PK = 'USER#u1'", keys: 1 },
          reason: "PK = 'USER#u1' is the table's partition key",
          estimate: { itemsRead: 5, itemsReturned: 5, rcu: 1, basis: '~4.2 items per partition in a sample' },
          maxItems: 1_000_000,
        },
      ],
      totals: { itemsRead: 5, rcu: 1, calls: 1 },
      notes: [],
    },
    notes:
      'Bad SQL fails with code SqlSyntaxError (or SqlError, SqlReadOnly) and details { line, column, offset, length }.',
  },
  'sql:run': {
    summary:
      'Runs a SELECT: fetches what the plan says (or reuses the cache), then executes it in the SQL worker. Rows stay there; read them with sql:window.',
    input: { connectionId, sql: statement, requestId: 'sql-7f3a9c21' },
    output: { started: true },
    notes:
      "Progress events follow under requestId; the `done` event carries { resultId, columns, columnTypes, total, grouped, warnings, elapsedMs, fetches }. ops:cancel stops it. A statement that would Scan tables whose DescribeTable size is past the connection's scan limit (athena:settings) reads nothing and ends in an error ScanLimitExceeded, unless `local: true` says the user chose the local scan (athena:plan offers Athena instead).",
  },
  'sql:window': {
    summary: 'Rows offset..offset+limit of a result, as tagged DynamoDB values (numbers keep every digit).',
    input: { resultId: 'sql-m1x2y3-4', offset: 0, limit: 2 },
    output: {
      total: 40,
      offset: 0,
      columns: ['name', 'orders', 'revenue'],
      rows: [
        [{ S: 'Kenji Sato' }, { N: '5' }, { N: '612.35' }],
        [{ S: 'Ines Dubois' }, { N: '4' }, { N: '540.2' }],
      ],
    },
  },
  'sql:drop': {
    summary: 'Forgets a result.',
    input: { resultId: 'sql-m1x2y3-4' },
    output: { dropped: true },
  },
  'sql:views': {
    summary: "The connection's user-defined entity views (views.json in its SQL folder).",
    input: { connectionId },
    output: [],
  },
  'sql:saveView': {
    summary: 'Saves a user-defined entity view: a name plus a key condition on the table or an index.',
    input: {
      connectionId,
      view: {
        name: 'paid_orders',
        table: 'DynoTableSample',
        index: 'GSI1',
        conditions: [{ attribute: 'GSI1PK', op: '=', values: [{ S: 'STATUS#PAID' }] }],
      },
    },
    output: [
      {
        name: 'paid_orders',
        table: 'DynoTableSample',
        index: 'GSI1',
        conditions: [{ attribute: 'GSI1PK', op: '=', values: [{ S: 'STATUS#PAID' }] }],
        source: 'user',
      },
    ],
  },
  'sql:deleteView': {
    summary: 'Deletes a user-defined entity view.',
    input: { connectionId, name: 'paid_orders' },
    output: [],
  },
  'sql:history': {
    summary: 'Statements run on this connection, newest first (history.sql, plain SQL).',
    input: { connectionId },
    output: [{ sql: statement, ranAt: '2026-11-06T09:00:00.000Z' }],
  },
  'sql:savedQueries': {
    summary: 'Saved queries: every .sql file in the connection’s queries folder, so a team can share them.',
    input: { connectionId },
    output: [
      {
        name: 'Revenue per customer',
        sql: `${statement};`,
        updatedAt: '2026-11-06T09:00:00.000Z',
        file: '/home/me/.config/DynoTable/sql/playground/queries/revenue-per-customer.sql',
      },
    ],
  },
  'sql:saveQuery': {
    summary: 'Saves a query as queries/<name>.sql.',
    input: { connectionId, name: 'Revenue per customer', sql: statement },
    output: {
      name: 'Revenue per customer',
      sql: statement,
      updatedAt: '2026-11-06T09:00:00.000Z',
      file: '/home/me/.config/DynoTable/sql/playground/queries/revenue-per-customer.sql',
    },
  },
  'sql:deleteQuery': {
    summary: 'Deletes a saved query file.',
    input: { connectionId, name: 'Revenue per customer' },
    output: { deleted: true },
  },
  'sql:cache': {
    summary: 'What is cached for the connection and how old it is.',
    input: { connectionId },
    output: [
      {
        table: 'DynoTableSample',
        description: "Scan where (begins_with(SK, 'ORDER#')) OR (PK = 'USER#u1')",
        items: 230,
        fetchedAt: '2026-11-06T09:00:00.000Z',
      },
    ],
  },
  'sql:clearCache': {
    summary: 'Drops the cached data of the connection; the next run reads DynamoDB again.',
    input: { connectionId },
    output: { cleared: 2 },
  },
};
