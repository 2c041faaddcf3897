import { z } from 'zod';
import { attributeValueSchema } from '../dynamo/attribute-value';
import { tableSummarySchema } from '../ipc/tables';

/**
 * An export opened in this session, which SQL reads as `FROM export."<name or ARN>"` from its
 * files (S3 or a folder) rather than from the table: it costs no read capacity.
 */
export const exportTableSchema = z.object({
  /** `<table>-<yyyy-mm-dd>` of its export time (see exports:opened). */
  name: z.string(),
  exportArn: z.string(),
  table: z.string(),
  exportTime: z.string(),
  items: z.number().int(),
  keyAttributes: z.array(z.string()),
});
export type ExportTable = z.infer<typeof exportTableSchema>;

/**
 * What SQL needs to know of a DynamoDB table: the one table summary's keys, indexes and sizes
 * (picked, not defined again), and SQL's own estimates from a sample.
 */
export const tableInfoSchema = tableSummarySchema
  .pick({ name: true, keys: true, indexes: true, itemCount: true, sizeBytes: true })
  .extend({
    /** Items per partition key value, estimated from a small sample; for Query estimates. */
    itemsPerPartition: z.number().optional(),
    /** The same per global secondary index (its partitions are spread across the table's). */
    indexItemsPerPartition: z.record(z.string(), z.number()).optional(),
    /** Set when this "table" is an opened export, read from its files instead of DynamoDB. */
    export: exportTableSchema.optional(),
  });
export type TableInfo = z.infer<typeof tableInfoSchema>;

/** One key condition: what a Query's KeyConditionExpression can say about one key attribute. */
export const keyConditionSchema = z.object({
  attribute: z.string().min(1),
  op: z.enum(['=', '<', '<=', '>', '>=', 'between', 'begins_with']),
  values: z.array(attributeValueSchema).min(1).max(2),
});
export type KeyCondition = z.infer<typeof keyConditionSchema>;

/**
 * An entity view: the items of one entity type in a single-table design, addressable as a
 * table in SQL (`FROM orders` or `FROM MyTable.orders`). Detected views come from key prefixes
 * (USER#..., ORDER#...); user-defined ones are a name plus a key condition on the table or an
 * index, saved with the connection.
 */
export const entityViewSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a name of letters, digits and _ that starts with a letter'),
  table: z.string().min(3).max(255),
  index: z.string().optional(),
  conditions: z.array(keyConditionSchema).min(1).max(2),
  source: z.enum(['detected', 'user']),
  /** Detected views: the share of sampled items that belong to the entity (0..1). */
  share: z.number().min(0).max(1).optional(),
});
export type EntityView = z.infer<typeof entityViewSchema>;

export const catalogSchema = z.object({
  tables: z.array(tableInfoSchema),
  /**
   * Tables past the ones described and sampled (an account with more than 100): names only, so
   * the side panel and autocomplete still offer them; a statement naming one describes it then.
   */
  moreTables: z.array(z.string()).optional(),
  /** Opened exports, named `export."<name>"` in FROM. */
  exports: z.array(exportTableSchema).optional(),
  views: z.array(entityViewSchema),
  /** Attribute paths seen in fetched or sampled items, per table or view name (for autocomplete). */
  attributes: z.record(z.string(), z.array(z.string())),
});
export type SqlCatalog = z.infer<typeof catalogSchema>;
