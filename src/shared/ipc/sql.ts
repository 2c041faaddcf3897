import { z } from 'zod';
import { attributeValueSchema, itemSchema } from '../dynamo/attribute-value';
import { catalogSchema, entityViewSchema } from '../sql/catalog';
import { sqlPlanSchema } from '../sql/plan';
import { athenaRunInfoSchema } from './athena';
import { requestIdSchema } from './operations';
import { keySchemaSchema } from './tables';
import { windowAnswerShape, windowRangeShape } from './window';

/** Schemas of the `sql:*` channels (the SQL workbench). Results stay in main; windows cross. */
const connectionRef = z.object({ connectionId: z.string() });
const statement = z.string().min(1).max(100_000);
/** Every read is bounded: each DynamoDB read of a statement stops after this many items. */
export const SQL_DEFAULT_MAX_ITEMS = 1_000_000;
const maxItems = z.number().int().min(1).max(5_000_000).optional();

export const sqlPlanInput = connectionRef.extend({ sql: statement, maxItems });
export const sqlRunInput = connectionRef.extend({
  sql: statement,
  requestId: requestIdSchema,
  /** Read again even when the data is cached. */
  refresh: z.boolean().optional(),
  maxItems,
  /**
   * The user chose the local scan although it is past the scan limit (athena:plan). Without it
   * a statement that would Scan past the limit reads nothing and fails with ScanLimitExceeded.
   */
  local: z.boolean().optional(),
});

export const sqlFetchStatsSchema = z.object({
  id: z.string(),
  table: z.string(),
  operation: z.string(),
  items: z.number().int(),
  pages: z.number().int(),
  consumedCapacity: z.number(),
  cached: z.boolean(),
  fetchedAt: z.string(),
  /** Stopped at the read bound: the result covers part of the data. */
  truncated: z.boolean(),
});

export const sqlResultSummarySchema = z.object({
  resultId: z.string(),
  columns: z.array(z.string()),
  /** Dominant DynamoDB type per column in the first rows (N, S, ..., MIXED, NULL). */
  columnTypes: z.array(z.string()),
  total: z.number().int(),
  /** The statement groups or aggregates: a chart may make sense. */
  grouped: z.boolean(),
  warnings: z.array(z.string()),
  elapsedMs: z.number(),
  fetches: z.array(sqlFetchStatsSchema),
  /**
   * Present when each row is one item of this table (one table or view in FROM, no GROUP BY,
   * aggregate, DISTINCT, join or set operation): `sql:window` then gives each row's key.
   */
  source: z.object({ table: z.string(), keys: keySchemaSchema }).optional(),
  /** The statement ran on Amazon Athena over an export (athena:run): Athena's own figures. */
  athena: athenaRunInfoSchema.optional(),
});
export type SqlResultSummary = z.infer<typeof sqlResultSummarySchema>;

export const sqlWindowInput = z.object({ resultId: z.string(), ...windowRangeShape });
export const sqlWindowOutput = z.object({
  ...windowAnswerShape,
  /** Tagged values; null where a row has no value (a missing attribute). */
  rows: z.array(z.array(attributeValueSchema.nullable())),
  /** With a summary's `source`: the primary key of each row's item (null when it has none). */
  keys: z.array(itemSchema.nullable()).optional(),
});
export type SqlWindow = z.infer<typeof sqlWindowOutput>;

export const sqlCatalogInput = connectionRef.extend({ refresh: z.boolean().optional() });
export const sqlCatalogOutput = catalogSchema.extend({ loadedAt: z.string(), sampleCapacity: z.number() });
export type SqlCatalogOutput = z.infer<typeof sqlCatalogOutput>;

export const sqlSaveViewInput = connectionRef.extend({
  view: entityViewSchema.omit({ source: true, share: true }),
});
export const sqlDeleteViewInput = connectionRef.extend({ name: z.string() });

export const sqlHistoryEntrySchema = z.object({
  sql: z.string(),
  ranAt: z.string(),
  /** Where it ran: `cli` for `dynotable sql`; absent for the app's own workbench. */
  source: z.enum(['cli']).optional(),
});
export const sqlSavedQuerySchema = z.object({
  name: z.string(),
  sql: z.string(),
  updatedAt: z.string(),
  file: z.string(),
});
export type SqlHistoryEntry = z.infer<typeof sqlHistoryEntrySchema>;
export type SqlSavedQuery = z.infer<typeof sqlSavedQuerySchema>;
export const sqlSaveQueryInput = connectionRef.extend({
  name: z.string().min(1).max(120),
  sql: statement,
});
export const sqlDeleteQueryInput = connectionRef.extend({ name: z.string().min(1).max(120) });

export const sqlCacheEntrySchema = z.object({
  table: z.string(),
  description: z.string(),
  items: z.number().int(),
  fetchedAt: z.string(),
});

export { sqlPlanSchema };

/** The `sql:*` channels, spread into the contract. */
export const sqlChannels = {
  'sql:catalog': { input: sqlCatalogInput, output: sqlCatalogOutput },
  'sql:plan': { input: sqlPlanInput, output: sqlPlanSchema },
  /** Starts a statement under requestId; progress arrives as operation events, `done` carries a SqlResultSummary. */
  'sql:run': { input: sqlRunInput, output: z.object({ started: z.boolean() }), done: sqlResultSummarySchema },
  'sql:window': { input: sqlWindowInput, output: sqlWindowOutput },
  'sql:drop': { input: z.object({ resultId: z.string() }), output: z.object({ dropped: z.boolean() }) },
  'sql:views': { input: connectionRef, output: z.array(entityViewSchema) },
  'sql:saveView': { input: sqlSaveViewInput, output: z.array(entityViewSchema) },
  'sql:deleteView': { input: sqlDeleteViewInput, output: z.array(entityViewSchema) },
  'sql:history': { input: connectionRef, output: z.array(sqlHistoryEntrySchema) },
  'sql:savedQueries': { input: connectionRef, output: z.array(sqlSavedQuerySchema) },
  'sql:saveQuery': { input: sqlSaveQueryInput, output: sqlSavedQuerySchema },
  'sql:deleteQuery': { input: sqlDeleteQueryInput, output: z.object({ deleted: z.boolean() }) },
  'sql:cache': { input: connectionRef, output: z.array(sqlCacheEntrySchema) },
  'sql:clearCache': { input: connectionRef, output: z.object({ cleared: z.number().int() }) },
} as const;
