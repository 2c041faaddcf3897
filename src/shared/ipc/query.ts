import { z } from 'zod';
import { attributeValueSchema, itemSchema } from '../dynamo/attribute-value';
import { attributePathSchema } from './items';
import { requestIdSchema } from './operations';
import { keySchemaSchema, tableRefInput } from './tables';

/**
 * The query and scan builder's input. Structured on purpose: main builds the expressions, so
 * every attribute name goes through ExpressionAttributeNames and every value keeps its type.
 * Raw mode takes expressions as typed, for what the builder cannot say.
 */
export const comparatorSchema = z.enum(['=', '<>', '<', '<=', '>', '>=']);
export const filterOperators = [
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'between',
  'begins_with',
  'contains',
  'not_contains',
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'size',
  'in',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

export const attributeTypeSchema = z.enum(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']);

export const filterConditionSchema = z.object({
  kind: z.literal('condition'),
  path: attributePathSchema,
  op: z.enum(filterOperators),
  /** The compared value (=, <, begins_with, contains, size's number, between's lower bound). */
  value: attributeValueSchema.optional(),
  /** between's upper bound. */
  value2: attributeValueSchema.optional(),
  /** IN's candidates (at most 100, DynamoDB's limit). */
  values: z.array(attributeValueSchema).max(100).optional(),
  /** attribute_type's type. */
  type: attributeTypeSchema.optional(),
  /** size's comparator. */
  sizeOp: comparatorSchema.optional(),
});
export type FilterCondition = z.infer<typeof filterConditionSchema>;

export interface FilterGroup {
  kind: 'group';
  join: 'AND' | 'OR';
  not?: boolean;
  items: (FilterCondition | FilterGroup)[];
}

export const filterGroupSchema: z.ZodType<FilterGroup> = z.lazy(() =>
  z.object({
    kind: z.literal('group'),
    join: z.enum(['AND', 'OR']),
    not: z.boolean().optional(),
    items: z.array(z.union([filterConditionSchema, filterGroupSchema])).max(100),
  }),
);

export const sortKeyConditionSchema = z.object({
  op: z.enum(['=', '<', '<=', '>', '>=', 'begins_with', 'between']),
  value: attributeValueSchema,
  value2: attributeValueSchema.optional(),
});
export type SortKeyCondition = z.infer<typeof sortKeyConditionSchema>;

export const readSpecSchema = z.object({
  mode: z.enum(['query', 'scan']),
  index: z.string().min(3).max(255).optional(),
  partitionKey: attributeValueSchema.optional(),
  sortKey: sortKeyConditionSchema.optional(),
  filter: filterGroupSchema.optional(),
  /** Raw mode: expressions as typed, with their own placeholders. They replace the builder's parts. */
  raw: z
    .object({
      keyCondition: z.string().max(4096).optional(),
      filter: z.string().max(4096).optional(),
      names: z.record(z.string().regex(/^#/), z.string()).optional(),
      values: itemSchema.optional(),
    })
    .optional(),
  projection: z.array(attributePathSchema).max(100).optional(),
  descending: z.boolean().optional(),
  consistent: z.boolean().optional(),
});
export type ReadSpec = z.infer<typeof readSpecSchema>;

export const queryStartInput = tableRefInput.extend({
  requestId: requestIdSchema,
  spec: readSpecSchema,
  /** DynamoDB's Limit per request: items evaluated (before filters) per page. */
  pageSize: z.number().int().min(1).max(1000).optional(),
  /** Stop after this many matching items (default 100). */
  maxItems: z.number().int().min(1).max(1_000_000).optional(),
  /** Keep reading pages until maxItems matches are found, instead of stopping after maxItems evaluated. */
  untilMatches: z.boolean().optional(),
  /** Upper bound on requests for this call, so "until N matches" on a sparse filter still ends. */
  maxPages: z.number().int().min(1).max(100_000).optional(),
  cursor: z.string().optional(),
  /** Append to this result set ("load more"). */
  resultSetId: z.string().optional(),
});

/** Client-side sort and filter of fetched rows, computed in the result-set worker. */
export const viewSpecSchema = z.object({
  sort: z
    .array(z.object({ column: z.string(), descending: z.boolean() }))
    .max(4)
    .optional(),
  /** Case-insensitive text to find in any attribute, or in `column` only. */
  text: z.string().max(200).optional(),
  column: z.string().optional(),
  /** Only rows whose entity type (from key prefixes) is one of these. */
  entities: z.array(z.string().max(40)).max(50).optional(),
  keys: keySchemaSchema.optional(),
});
export type ViewSpec = z.infer<typeof viewSpecSchema>;

export const queryChannels = {
  /** Query or Scan with the builder's spec, into a result set; pages/progress/done as operation events. */
  'query:start': {
    input: queryStartInput,
    output: z.object({ resultSetId: z.string(), operation: z.enum(['Query', 'Scan']) }),
  },
  /** Sorts/filters the rows fetched so far, in the result-set worker; read them with resultsets:window's viewId. */
  'resultsets:view': {
    input: z.object({ resultSetId: z.string(), spec: viewSpecSchema }),
    output: z.object({
      viewId: z.string(),
      total: z.number().int(),
      /** Rows per entity type (key prefix) over all fetched rows; '' for rows without one. */
      entities: z.record(z.string(), z.number().int()).optional(),
    }),
  },
} as const;
