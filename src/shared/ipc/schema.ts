import { z } from 'zod';
import { keyConditionSchema } from '../sql/catalog';
import { requestIdSchema } from './operations';
import { readLimitSchema } from './migration';
import { keySchemaSchema, tableRefInput } from './tables';

/**
 * The Schema view (issue 15): what every attribute path of a schemaless table really holds,
 * per entity, from a sample spread over Scan segments or from a full scan. Paths are written as
 * the SQL workbench writes them: `address.city`, `"address.city"` (one top-level name with a
 * dot), `lines[].sku` (every list element's sku). Attribute names are values here, never keys.
 */
export const valueTypeSchema = z.enum(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']);
export type SchemaValueType = z.infer<typeof valueTypeSchema>;

export const stringFormatSchema = z.enum([
  'isoDateTime',
  'isoDate',
  'epochString',
  'uuid',
  'email',
  'url',
  'json',
]);
export type SchemaStringFormat = z.infer<typeof stringFormatSchema>;

const count = z.number().int().nonnegative();
const bucketSchema = z.object({ label: z.string(), count });
export type SchemaBucket = z.infer<typeof bucketSchema>;

export const attributeSchemaSchema = z.object({
  path: z.string(),
  /** Items that hold the path at least once. */
  items: count,
  /** items / the items of the entity (or of the whole read). */
  share: z.number(),
  /** Values seen: list elements and set members count one each. */
  values: count,
  types: z.partialRecord(valueTypeSchema, count),
  /** Of the string values (S and string-set members), those of each detected format. */
  formats: z.partialRecord(stringFormatSchema, count),
  strings: count,
  length: z.object({ min: count, max: count }).optional(),
  lengthHistogram: z.array(bucketSchema).optional(),
  number: z
    .object({
      min: z.string(),
      max: z.string(),
      count,
      integers: count,
      epochSeconds: count,
      epochMillis: count,
    })
    .optional(),
  numberHistogram: z.array(bucketSchema).optional(),
  /** Years of date-like values (ISO strings, epoch numbers or epoch strings). */
  yearHistogram: z.array(bucketSchema).optional(),
  setSize: z.object({ min: count, max: count }).optional(),
  listLength: z.object({ min: count, max: count }).optional(),
  /** Exact while at most 64 distinct values were seen, else a HyperLogLog estimate (±2.3%). */
  distinct: z.object({ count, isExact: z.boolean() }),
  /** The most common values of a low-cardinality path (type + text, like the grid shows them). */
  topValues: z.array(z.object({ type: valueTypeSchema, value: z.string(), count })).optional(),
});
export type AttributeSchema = z.infer<typeof attributeSchemaSchema>;

export const entitySchemaSchema = z.object({
  /** As SQL names the entity's view (orders, users), or the type attribute's value. */
  name: z.string(),
  /** The key shape most items of the entity have: `PK=USER#… SK=ORDER#…`. */
  keyPattern: z.string(),
  keyPatterns: z.array(z.object({ pattern: z.string(), count })),
  /** The key condition SQL's view of this entity uses (absent when grouped by an attribute). */
  conditions: z.array(keyConditionSchema).optional(),
  items: count,
  maxItemBytes: count,
  attributes: z.array(attributeSchemaSchema),
  untrackedPaths: count,
  /** The indexes the entity's items appear in, with their key shape there (an item collection). */
  indexPatterns: z.array(z.object({ index: z.string(), pattern: z.string(), count })).optional(),
});
export type EntitySchema = z.infer<typeof entitySchemaSchema>;

export const schemaWarningSchema = z.object({
  kind: z.enum(['mixedTypes', 'isoAndEpoch', 'dottedName', 'nearItemLimit', 'keyShape']),
  path: z.string(),
  /** The entity it was found in; absent for the whole read. */
  entity: z.string().optional(),
  detail: z.string(),
});
export type SchemaWarning = z.infer<typeof schemaWarningSchema>;

export const sampleDrawSchema = z.object({
  mode: z.enum(['sample', 'full']),
  /** TotalSegments of every Scan request. */
  totalSegments: z.number().int(),
  /** The segments read (a sample: the first page of each; a full scan: all of them). */
  segments: z.array(z.number().int()),
  /** Items per page asked of each sampled segment. */
  pageLimit: z.number().int().optional(),
  pages: count,
  consumedReadCapacity: z.number(),
  throttledRequests: count,
  /** For people: "the first page of 40 random segments of 2,000: 812 items, 14.5 RCU". */
  description: z.string(),
});
export type SampleDraw = z.infer<typeof sampleDrawSchema>;

const keyAttribute = z.object({ name: z.string(), type: z.enum(['S', 'N', 'B']) });

/**
 * The advisor (issue 28 item 4): a global index keyed on synthetic concatenated values
 * (`GSI1PK = TENANT#t1#REGION#eu`) and the native multi-attribute index that would replace it.
 * Counts are over the items read; the renderer scales them to the table.
 */
export const keyAdviceSchema = z.object({
  /** The index keyed on the synthetic attributes. */
  index: z.string(),
  /** Each synthetic attribute, its role there and how its values are built: `TENANT#{tenant}#REGION#{region}`. */
  replaces: z.array(
    z.object({ attribute: z.string(), role: z.enum(['partition', 'sort']), template: z.string() }),
  ),
  /** A free index name for the new index. */
  proposedName: z.string(),
  partitionKeys: z.array(keyAttribute).min(1).max(4),
  sortKeys: z.array(keyAttribute).max(4),
  /** Items the index holds in the read. */
  indexItems: count,
  /** Of those, the items whose keys have the proposed shape. */
  shapeItems: count,
  /** Of those, the items whose attributes already hold every part: nothing to backfill. */
  readyItems: count,
  /** Per proposed attribute, items of the shape that lack it (or hold another value): what a backfill writes. */
  backfill: z.array(z.object({ name: z.string(), items: count })),
  /** Index items whose keys have another shape: the new index would find them only after a rewrite. */
  otherShapes: count,
  /**
   * Items read that hold every proposed attribute but not the index's keys: the new index would
   * hold them too. An upper bound; `newcomers` is the exact count where the read could tell.
   */
  newcomersAtMost: count,
  /** Of the items read without the index's keys, those holding every proposed attribute with its key type, exactly. */
  newcomers: count.optional(),
  /** Bytes of the synthetic attributes (name + value) over the items read; the index stores them again. */
  bytesSaved: count,
  /** Write units to put every item read once: as stored, and without the synthetic attributes. */
  writeUnits: z.object({ now: count, native: count }),
});
export type KeyAdvice = z.infer<typeof keyAdviceSchema>;

export const schemaReportSchema = z.object({
  scanId: z.string(),
  table: z.string(),
  index: z.string().optional(),
  keys: keySchemaSchema,
  /** The table's indexes (absent in reads saved before they were recorded). */
  indexes: z
    .array(z.object({ name: z.string(), kind: z.enum(['GSI', 'LSI']), keys: keySchemaSchema }))
    .optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** True for a sample; false for a full scan (complete or stopped). */
  sampled: z.boolean(),
  /** A full scan that read every segment to its end. */
  complete: z.boolean(),
  itemsScanned: count,
  tableItemCount: z.number(),
  draw: sampleDrawSchema,
  entitySource: z.union([
    z.object({ kind: z.literal('keys') }),
    z.object({ kind: z.literal('attribute'), name: z.string() }),
  ]),
  entities: z.array(entitySchemaSchema),
  /** Every path over all items read. */
  attributes: z.array(attributeSchemaSchema),
  maxItemBytes: count,
  warnings: z.array(schemaWarningSchema),
  untrackedPaths: count,
  untrackedEntityItems: count,
  /** Synthetic concatenated index keys and the native multi-attribute index for each (absent in older reads). */
  keyAdvice: z.array(keyAdviceSchema).optional(),
});
export type SchemaReport = z.infer<typeof schemaReportSchema>;

export const schemaAnalyzeInput = tableRefInput.extend({
  requestId: requestIdSchema,
  index: z.string().min(1).max(255).optional(),
  mode: z.enum(['sample', 'full']),
  /** Items a sample aims at (default 1,000). */
  sampleSize: z.number().int().min(10).max(100_000).optional(),
  /** Segments a sample reads (default 40), or a full scan's parallel segments (default 4). */
  segments: z.number().int().min(1).max(1000).optional(),
  limit: readLimitSchema.optional(),
  /** Group entities by this attribute's value instead of by key prefixes. */
  typeAttribute: z.string().min(1).max(255).optional(),
  /** Continue a cancelled or failed full scan. */
  resumeScanId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,80}$/)
    .optional(),
});
export type SchemaAnalyzeInput = z.infer<typeof schemaAnalyzeInput>;

export const schemaScanSummarySchema = z.object({
  scanId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  index: z.string().optional(),
  mode: z.enum(['sample', 'full']),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  requestId: z.string().optional(),
  startedAt: z.string(),
  itemsScanned: count,
  error: z.string().optional(),
});
export type SchemaScanSummary = z.infer<typeof schemaScanSummarySchema>;

const scanIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,80}$/, 'a scan id');

export const schemaChannels = {
  /** Samples or scans a table or index as an operation. */
  'schema:analyze': {
    input: schemaAnalyzeInput,
    output: z.object({ scanId: z.string() }),
    done: z.object({ scanId: z.string() }),
  },
  /** The report of a sample or scan (a stopped full scan's: what it read so far). */
  'schema:report': { input: z.object({ scanId: scanIdSchema }), output: schemaReportSchema },
  /** The schema reads of a table (newest first), to reopen one or resume a stopped full scan. */
  'schema:scans': {
    input: z.object({ connectionId: z.string(), table: z.string(), index: z.string().optional() }),
    output: z.array(schemaScanSummarySchema),
  },
} as const;
