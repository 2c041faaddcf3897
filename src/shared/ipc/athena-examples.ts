import type { athenaChannels } from './athena';
import type { ChannelExample } from './examples';

type AthenaExamples = { [C in keyof typeof athenaChannels]: ChannelExample<C> };

const connectionId = 'prod-eu';
const sql = "SELECT status, COUNT(*) AS n FROM orders WHERE placedAt >= '2026-01-01' GROUP BY status";
const settings = {
  workGroup: 'primary',
  outputLocation: 's3://acme-athena-results/dynotable/',
  database: 'dynotable',
  exportBucket: 'acme-dynamodb-exports',
};

const saved = {
  limits: { items: 50_000_000, rcu: 200_000 },
  isDefault: false,
  defaultLimits: { bytes: 4_294_967_296 },
  machineMemoryBytes: 17_179_869_184,
  athena: settings,
};

/** Examples of the `athena:*` channels for docs/API.md. */
export const athenaExamples: AthenaExamples = {
  'athena:plan': {
    summary:
      "The plan's choice for a statement that would scan more than the limit: the local Scan's items, bytes, RCU and time next to Athena's data scanned, price and export time, and the statement in Athena's dialect (or the construct it cannot run). Starts nothing.",
    input: { connectionId, sql },
    output: {
      over: ['200 GB is more than the limit of 4.3 GB'],
      limits: { bytes: 4_294_967_296 },
      scannedTables: ['Orders'],
      local: { items: 400_000_000, bytes: 200e9, rcu: 24_414_062.5, seconds: 105_263 },
      athena: {
        scannedBytes: 200e9,
        costUsd: 0.909,
        usdPerTb: 5,
        exportNeeded: true,
        exportSeconds: 2000,
        exports: [],
      },
      translation: {
        ok: true,
        sql: 'SELECT "t"."item"."status"."s" AS "status", count(*) AS "n" FROM "dynotable"."ddb_orders" AS "t" WHERE … GROUP BY 1',
        notes: [],
      },
    },
    notes:
      "Without `limits` the limit is a quarter of the machine memory in bytes. With `freshExport: true` the recent exports are still listed but passed over (`athena.freshExport`): `exportNeeded` is true and the time includes a new export's. Past the limit it lists the tables' exports (ListExports) and reads a small Schema sample of a table without a saved Schema read, for the Glue column types. `translation` is absent when the local scan is within the limits.",
  },
  'athena:run': {
    summary:
      'Runs the statement on Amazon Athena: starts an export if agreed (startExport) and none is recent, creates or updates the Glue table over it, runs the translated SQL, and keeps its rows as a SQL result.',
    input: { connectionId, sql, requestId: 'athena-5c1e0b7d', settings, startExport: true },
    output: { started: true },
    notes:
      'Refused before anything starts when the translation is refused (AthenaUnsupported) or an export is needed and startExport is not true (ExportNeeded). `freshExport: true` starts a new export even where a recent one exists. Progress events carry the export and query state, data scanned and cost; `done` carries a SQL result summary with `athena` (queryExecutionId, sql, dataScannedBytes, costUsd, exports): read rows with sql:window. ops:cancel stops the query (StopQueryExecution).',
  },
  'athena:settings': {
    summary:
      "The connection's scan limit (the user's, or the default of a quarter of this machine's memory) and the Athena settings it last ran with.",
    input: { connectionId },
    output: saved,
    notes:
      'Kept in athena-settings.json in the data folder; athena:run saves its settings when it starts (a run over a recent export keeps the export bucket named before). sql:run, athena:plan and the agent/MCP run_sql hold statements to `limits`.',
  },
  'athena:saveSettings': {
    summary:
      "Sets the connection's scan limit, kept across restarts; `limits: null` goes back to the default.",
    input: { connectionId, limits: { items: 50_000_000, rcu: 200_000 } },
    output: saved,
    notes:
      'An absent field is no limit of that kind; `limits: {}` is no limit at all. A statement whose whole-table Scans are past the limit reads nothing in sql:run (ScanLimitExceeded) unless it is sent with `local: true`.',
  },
};
