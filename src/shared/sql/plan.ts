import { z } from 'zod';

/**
 * One DynamoDB read the statement needs, as the plan preview shows it; ReadExport reads an
 * opened export's files (S3 or disk) and no table at all.
 */
export const dynamoCallSchema = z.object({
  operation: z.enum(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'ReadExport']),
  table: z.string(),
  index: z.string().optional(),
  /** Readable KeyConditionExpression / FilterExpression with values inline (the request itself uses placeholders). */
  keyCondition: z.string().optional(),
  filter: z.string().optional(),
  /** Attributes fetched; absent when whole items are needed (SELECT *). */
  projection: z.array(z.string()).optional(),
  /** Parallel Scan segments. */
  segments: z.number().int().optional(),
  /** GetItem/BatchGetItem: keys requested; Query: partitions queried (IN lists). */
  keys: z.number().int().optional(),
});
export type DynamoCall = z.infer<typeof dynamoCallSchema>;

export const fetchPlanSchema = z.object({
  id: z.string(),
  /** FROM entries this fetch serves, e.g. ["o (orders)", "u (users)"]. */
  serves: z.array(z.string()),
  call: dynamoCallSchema,
  /** Why this call: "userId = 'u1' is the GSI1 partition key", "no key condition: Scan". */
  reason: z.string(),
  estimate: z.object({
    /** Items DynamoDB reads (Scan: the whole table) and roughly returns. */
    itemsRead: z.number(),
    itemsReturned: z.number(),
    /** Read capacity units, eventually consistent reads. */
    rcu: z.number(),
    basis: z.string(),
  }),
  /** Set when the data is already in the cache and will not be fetched again (unless refreshed). */
  cached: z.object({ fetchedAt: z.string(), items: z.number().int() }).optional(),
  /** Reads stop after this many items (every read is bounded). */
  maxItems: z.number().int(),
});
export type FetchPlan = z.infer<typeof fetchPlanSchema>;

export const sqlPlanSchema = z.object({
  fetches: z.array(fetchPlanSchema),
  totals: z.object({ itemsRead: z.number(), rcu: z.number(), calls: z.number() }),
  notes: z.array(z.string()),
});
export type SqlPlan = z.infer<typeof sqlPlanSchema>;
