import { z } from 'zod';

export const keyAttributeInfoSchema = z.object({ name: z.string(), type: z.enum(['S', 'N', 'B']) });
export type KeyAttributeInfo = z.infer<typeof keyAttributeInfoSchema>;

/**
 * A table's or an index's key (shared/dynamo/key-model.ts reads it): the first partition and sort
 * attributes, and for a multi-attribute GSI key the further ones, in KeySchema order (up to four
 * of each in all).
 */
export const keySchemaSchema = z.object({
  partitionKey: keyAttributeInfoSchema,
  sortKey: keyAttributeInfoSchema.optional(),
  morePartitionKeys: z.array(keyAttributeInfoSchema).max(3).optional(),
  moreSortKeys: z.array(keyAttributeInfoSchema).max(3).optional(),
});
export type KeySchema = z.infer<typeof keySchemaSchema>;

export const indexSchema = z.object({
  name: z.string(),
  kind: z.enum(['GSI', 'LSI']),
  keys: keySchemaSchema,
  projection: z.string(),
  projectedAttributes: z.array(z.string()).optional(),
  status: z.string().optional(),
  itemCount: z.number().optional(),
});
export type IndexInfo = z.infer<typeof indexSchema>;

export const tableSummarySchema = z.object({
  name: z.string(),
  status: z.string(),
  keys: keySchemaSchema,
  indexes: z.array(indexSchema),
  billingMode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']),
  readCapacity: z.number().optional(),
  writeCapacity: z.number().optional(),
  /** Approximate, refreshed by DynamoDB about every six hours. */
  itemCount: z.number(),
  sizeBytes: z.number(),
  ttl: z.object({ status: z.string(), attribute: z.string().optional() }),
  stream: z.object({
    enabled: z.boolean(),
    viewType: z.string().optional(),
    /** The current stream's ARN (LatestStreamArn), which a stream tail reads. */
    arn: z.string().optional(),
  }),
  pointInTimeRecovery: z.enum(['ENABLED', 'DISABLED', 'UNKNOWN']),
  deletionProtection: z.boolean(),
  createdAt: z.string().optional(),
  arn: z.string().optional(),
  tableClass: z.string().optional(),
});
export type TableSummary = z.infer<typeof tableSummarySchema>;

export const tableRefInput = z.object({ connectionId: z.string(), table: z.string().min(3).max(255) });
