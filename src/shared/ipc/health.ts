import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { requestIdSchema } from './operations';
import { tableRefInput } from './tables';

/**
 * Table health (issue 34): what one read of a table (a sample or a full scan) and CloudWatch say
 * about its keys, item sizes, TTL, indexes and cost, as findings that each name their evidence and
 * carry one action.
 */
export const healthSeveritySchema = z.enum(['info', 'warning', 'critical']);
export type HealthSeverity = z.infer<typeof healthSeveritySchema>;

/** CloudWatch's window: the last N hours, in periods CloudWatch keeps at that age. */
export const healthWindowSchema = z.enum(['3h', '24h', '7d', '30d']);
export type HealthWindow = z.infer<typeof healthWindowSchema>;

export const healthAnalyzeInput = tableRefInput.extend({
  requestId: requestIdSchema,
  mode: z.enum(['sample', 'full']),
  /** Items a sample aims at (default 1,000). */
  sampleSize: z.number().int().min(10).max(100_000).optional(),
  window: healthWindowSchema.default('24h'),
});

const keyShareSchema = z.object({
  /** The partition key value as text (binary as base64). */
  key: z.string(),
  items: z.number().int(),
  bytes: z.number(),
  itemShare: z.number(),
  byteShare: z.number(),
});

const sizeSummarySchema = z.object({
  entity: z.string(),
  items: z.number().int(),
  /** Percentiles within 2% (log buckets); max exact. */
  p50: z.number(),
  p95: z.number(),
  max: z.number(),
});

export const bigItemSchema = z.object({
  key: itemSchema,
  bytes: z.number(),
  entity: z.string(),
  /** The top-level attributes that make it big, largest first. */
  largest: z.array(z.object({ attribute: z.string(), bytes: z.number() })),
});

const ttlClassSchema = z.enum(['seconds', 'milliseconds', 'string', 'otherType', 'missing']);
export type TtlClass = z.infer<typeof ttlClassSchema>;

const seriesSchema = z.object({
  /** The table, or an index's name. */
  resource: z.string(),
  metric: z.string(),
  /** Epoch ms and the sum per period. */
  points: z.array(z.object({ t: z.number(), v: z.number() })),
  total: z.number(),
});

const contributorSchema = z.object({ key: z.string(), count: z.number() });

export const healthActionSchema = z.discriminatedUnion('kind', [
  /** Open these items in the Items tab (or one in the item editor). */
  z.object({ kind: z.literal('open-items'), keys: z.array(itemSchema) }),
  /** Stage the pre-flight's TTL fix (milliseconds → seconds), run only on confirmation. */
  z.object({ kind: z.literal('stage-ttl-fix'), attribute: z.string() }),
  /** A change to the table's definition, as CloudFormation and as CDK. */
  z.object({ kind: z.literal('show-change'), cloudFormation: z.string(), cdk: z.string() }),
  /** Turn Contributor Insights on for the table (UpdateContributorInsights). */
  z.object({ kind: z.literal('enable-insights'), monthlyCostNote: z.string() }),
]);
export type HealthAction = z.infer<typeof healthActionSchema>;

export const healthFindingSchema = z.object({
  id: z.string(),
  area: z.enum(['keys', 'sizes', 'ttl', 'indexes', 'cost']),
  severity: healthSeveritySchema,
  title: z.string(),
  /** Which items, which metric, which window. */
  evidence: z.string(),
  /** USD per month the action would save, when it can be priced. */
  monthlySavings: z.number().optional(),
  action: healthActionSchema.optional(),
});
export type HealthFinding = z.infer<typeof healthFindingSchema>;

export const healthReportSchema = z.object({
  reportId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  createdAt: z.string(),
  draw: z.object({
    mode: z.enum(['sample', 'full']),
    itemsRead: z.number().int(),
    /** DescribeTable's ItemCount (about six hours old). */
    tableItemCount: z.number().int(),
    tableSizeBytes: z.number(),
    consumedReadCapacity: z.number(),
    description: z.string(),
  }),
  keys: z.object({
    partitionKey: z.string(),
    distinctPartitionKeys: z.number().int(),
    /** True when more distinct keys were read than are counted one by one. */
    isCapped: z.boolean(),
    top: z.array(keyShareSchema),
    /**
     * Item collections (partition key values) past 80% of the 10 GB LSI limit: measured by a full
     * read (`isExact`), or a sample's bytes scaled by the table's item count over the items read.
     */
    largeCollections: z.array(
      z.object({ key: z.string(), estimatedBytes: z.number(), isExact: z.boolean() }),
    ),
    hasLocalIndexes: z.boolean(),
  }),
  sizes: z.object({
    entities: z.array(sizeSummarySchema),
    /** Items per size band (bytes from..to), for the histogram. */
    histogram: z.array(z.object({ from: z.number(), to: z.number(), items: z.number().int() })),
    nearLimit: z.array(bigItemSchema),
    nearLimitCount: z.number().int(),
  }),
  ttl: z.object({
    status: z.string(),
    attribute: z.string().optional(),
    counts: z.record(ttlClassSchema, z.number().int()),
    /** Of `seconds`: already past, DynamoDB has not deleted them yet (it may take a few days). */
    expiredPresent: z.number().int(),
    samples: z.record(ttlClassSchema, z.array(itemSchema)),
  }),
  indexes: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['GSI', 'LSI']),
      projection: z.string(),
      itemCount: z.number().optional(),
      /** Consumed units over the window (absent without CloudWatch). */
      reads: z.number().optional(),
      writes: z.number().optional(),
    }),
  ),
  cloudWatch: z.object({
    state: z.enum(['ok', 'unreachable']),
    message: z.string().optional(),
    window: healthWindowSchema,
    start: z.string(),
    end: z.string(),
    periodSeconds: z.number().int(),
  }),
  capacity: z.array(seriesSchema),
  /** Provisioned units per second of the table and each GSI (none on on-demand), drawn against consumption. */
  provisioned: z.array(z.object({ resource: z.string(), read: z.number(), write: z.number() })),
  insights: z.object({
    state: z.enum(['enabled', 'disabled', 'unreachable']),
    message: z.string().optional(),
    mostAccessed: z.array(contributorSchema),
    mostThrottled: z.array(contributorSchema),
  }),
  cost: z.object({
    billingMode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']),
    /** The connection's region, whose prices were used. */
    region: z.string().optional(),
    /** Absent when DynoTable has no prices for the region (`prices` says so). */
    storageMonthly: z.number().optional(),
    /** From the window's consumed capacity; absent without CloudWatch. */
    onDemandMonthly: z.number().optional(),
    provisionedMonthly: z.number().optional(),
    /** Which region's list prices were used, or that the region has none in DynoTable. */
    prices: z.string(),
  }),
  findings: z.array(healthFindingSchema),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

export const healthChannels = {
  /** Reads the table (sample or full) and CloudWatch as an operation; the done event's value is { reportId }. */
  'health:analyze': {
    input: healthAnalyzeInput,
    output: z.object({ reportId: z.string() }),
    /** The finished report's id, for health:report. */
    done: z.object({ reportId: z.string() }),
  },
  /** A finished report (kept while DynoTable runs). */
  'health:report': { input: z.object({ reportId: z.string().max(80) }), output: healthReportSchema },
  /** The table's last report, kept in the data folder across restarts (null: never checked). */
  'health:latest': { input: tableRefInput, output: healthReportSchema.nullable() },
  /** Turns Contributor Insights on for the table; it then costs per event (the finding says how much). */
  'health:enableInsights': { input: tableRefInput, output: z.object({ status: z.string() }) },
} as const;
