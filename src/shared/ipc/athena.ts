import { z } from 'zod';
import { requestIdSchema } from './operations';

/**
 * Schemas of the `athena:*` channels (issue 17): the plan's honest choice between the local
 * scan and Amazon Athena over a DynamoDB export, and the Athena run itself. Results land in the
 * SQL worker's result store, so `sql:window` and `transfer:export` (sqlResultId) read them like local results.
 */
const connectionRef = z.object({ connectionId: z.string() });
const statement = z.string().min(1).max(100_000);

/** Past any of these the local scan waits for the user's choice; absent fields are no limit. */
export const scanLimitsSchema = z.object({
  items: z.number().int().positive().optional(),
  bytes: z.number().int().positive().optional(),
  rcu: z.number().positive().optional(),
});
export type ScanLimitsInput = z.infer<typeof scanLimitsSchema>;

export const athenaPlanInput = connectionRef.extend({
  sql: statement,
  /** Absent: the connection's saved limit (athena:saveSettings), else the default. */
  limits: scanLimitsSchema.optional(),
  /** The Glue database the translated statement names (default dynotable). */
  database: z
    .string()
    .regex(/^[a-z0-9_]{1,255}$/)
    .optional(),
  /**
   * Plan a new export even where a recent one exists (the user needs today's data): the
   * estimate includes the export's time, as athena:run with freshExport does it.
   */
  freshExport: z.boolean().optional(),
});

export const recentExportSchema = z.object({
  table: z.string(),
  exportArn: z.string(),
  /** When the export's point in time was, ISO. */
  exportTime: z.string(),
  billedSizeBytes: z.number(),
  itemCount: z.number(),
  bucket: z.string(),
  prefix: z.string().optional(),
});
export type RecentExport = z.infer<typeof recentExportSchema>;

export const athenaPlanOutput = z.object({
  /** Why the local scan is past the limit, one sentence each; empty: run locally as usual. */
  over: z.array(z.string()),
  limits: scanLimitsSchema,
  /** Tables the statement scans whole locally. */
  scannedTables: z.array(z.string()),
  local: z.object({ items: z.number(), bytes: z.number(), rcu: z.number(), seconds: z.number() }),
  athena: z.object({
    scannedBytes: z.number(),
    costUsd: z.number(),
    usdPerTb: z.number(),
    /** A table has no completed export in the last 24 hours: one must be made first. */
    exportNeeded: z.boolean(),
    exportSeconds: z.number(),
    /** Each table's completed export of the last 24 hours, if any; read unless freshExport. */
    exports: z.array(recentExportSchema),
    /** Planned with freshExport: the exports above are passed over and a new one is counted. */
    freshExport: z.boolean().optional(),
    /** Why exports could not be listed (no permission, DynamoDB Local), if so. */
    exportsNote: z.string().optional(),
  }),
  /**
   * The statement in Athena's dialect, or the construct Athena cannot run as DynoTable does.
   * Absent when the local scan is within the limits (no export is looked up, no schema read).
   */
  translation: z
    .discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), sql: z.string(), notes: z.array(z.string()) }),
      z.object({ ok: z.literal(false), construct: z.string(), message: z.string() }),
    ])
    .optional(),
});
export type AthenaPlan = z.infer<typeof athenaPlanOutput>;

export const athenaSettingsSchema = z.object({
  workGroup: z.string().min(1).max(128),
  /** s3://bucket/prefix/ where Athena writes its result files. */
  outputLocation: z.string().regex(/^s3:\/\/[^/]+(\/.*)?$/, 'an S3 location like s3://bucket/prefix/'),
  /** The Glue Data Catalog database DynoTable keeps its export tables in. */
  database: z.string().regex(/^[a-z0-9_]{1,255}$/, 'a Glue database name: lowercase letters, digits and _'),
  /** Where a new export is written, when one is needed. */
  exportBucket: z.string().max(63).optional(),
  exportPrefix: z.string().max(1024).optional(),
});
export type AthenaSettings = z.infer<typeof athenaSettingsSchema>;

export const athenaRunInput = connectionRef.extend({
  sql: statement,
  requestId: requestIdSchema,
  settings: athenaSettingsSchema,
  /** The user agreed to start an export for a table without a recent one. Without it none starts. */
  startExport: z.boolean().optional(),
  /** Start a new export even where a recent one exists (the user wants today's data); implies startExport. */
  freshExport: z.boolean().optional(),
});

/** What the Athena run adds to a result summary (`done` value): Athena's own figures. */
export const athenaRunInfoSchema = z.object({
  queryExecutionId: z.string(),
  sql: z.string(),
  dataScannedBytes: z.number(),
  costUsd: z.number(),
  exports: z.array(z.string()),
});

/**
 * The scan limit and the Athena choices a connection keeps across restarts, in main's data
 * folder (athena-settings.json): sql:run and athena:plan hold statements to `limits`.
 */
export const athenaSavedSettingsSchema = z.object({
  /** The limit in force: the user's, or the default when they set none. */
  limits: scanLimitsSchema,
  /** The user set none: `limits` is the default. */
  isDefault: z.boolean(),
  /** A quarter of this machine's memory in bytes, compared with the scanned tables' sizes. */
  defaultLimits: scanLimitsSchema,
  machineMemoryBytes: z.number(),
  /** What the user last ran on Athena with (workgroup, result location, database, bucket). */
  athena: athenaSettingsSchema.optional(),
});
export type AthenaSavedSettings = z.infer<typeof athenaSavedSettingsSchema>;

export const athenaSaveSettingsInput = connectionRef.extend({
  /** The new limit; null: back to the default. Absent: unchanged. */
  limits: scanLimitsSchema.nullable().optional(),
});

export const athenaChannels = {
  /** The connection's scan limit (or the default) and its last Athena settings. */
  'athena:settings': { input: connectionRef, output: athenaSavedSettingsSchema },
  /** Sets the connection's scan limit, kept across restarts; answers as athena:settings. */
  'athena:saveSettings': { input: athenaSaveSettingsInput, output: athenaSavedSettingsSchema },
  /** The local scan's estimate next to Athena's, and the translated statement; starts nothing. */
  'athena:plan': { input: athenaPlanInput, output: athenaPlanOutput },
  /** Export (if agreed) → Glue table → Athena query → result store, under requestId. */
  'athena:run': { input: athenaRunInput, output: z.object({ started: z.boolean() }) },
} as const;
