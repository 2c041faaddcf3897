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
  /** A multi-attribute index key: the values of its 2nd to 4th partition attributes, in order. */
  morePartitionKeys: z.array(attributeValueSchema).max(3).optional(),
  /**
   * Conditions on its 2nd to 4th sort attributes, in order; null where the form left one empty
   * (DynamoDB reads sort attributes left to right, so only trailing ones may stay empty).
   */
  moreSortKeys: z.array(sortKeyConditionSchema.nullable()).max(3).optional(),
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
  /**
   * Item-collection mode (needs `keys`): rows grouped by partition key, collections ordered by
   * partition key and their items by sort key (a `sort` on either key sets its direction; other
   * columns do not reorder items). Windows put a header row before each collection, and a
   * collapsed collection shows only its header. The view takes in rows appended after it.
   */
  collections: z.boolean().optional(),
});
export type ViewSpec = z.infer<typeof viewSpecSchema>;

/** The header row of one item collection in a window of a collection view. */
export const collectionHeaderSchema = z.object({
  /** Its place in the window: position `offset + at` is this header; `rows` fill the others in order. */
  at: z.number().int(),
  /** Absent for rows without a partition key attribute (a projection that left it out). */
  partitionKey: attributeValueSchema.optional(),
  /** Items in the collection (after the view's filters). */
  count: z.number().int(),
  /** Items per entity type (key prefix), when the items have one. */
  entities: z.record(z.string(), z.number().int()).optional(),
  isCollapsed: z.boolean(),
  /** The item position (see `positions`) of the collection's first item. */
  first: z.number().int(),
});
export type CollectionHeader = z.infer<typeof collectionHeaderSchema>;

export const queryChannels = {
  /** Query or Scan with the builder's spec, into a result set; pages/progress/done as operation events. */
  'query:start': {
    input: queryStartInput,
    output: z.object({ resultSetId: z.string(), operation: z.enum(['Query', 'Scan']) }),
    /** The rows are in the result set; `done` names it, and its cursor reads on. */
    done: z.object({ resultSetId: z.string() }),
  },
  /** Sorts/filters the rows fetched so far, in the result-set worker; read them with resultsets:window's viewId. */
  'resultsets:view': {
    input: z.object({
      resultSetId: z.string(),
      spec: viewSpecSchema,
      /**
       * The caller's name for the view: building it again replaces only that view, so a tab's
       * grid and another reader of the same set keep their own. Without it: a new id, replacing
       * the last view made without one.
       */
      viewId: z.string().min(1).max(64).optional(),
      /** Orders builds of a named view: one older than the view held is not applied. */
      revision: z.number().int().nonnegative().optional(),
    }),
    output: z.object({
      viewId: z.string(),
      /** The revision of the view now held under this name (newer than asked: a later build won). */
      revision: z.number().int().optional(),
      /** The result set's change counter when these sizes were true: a higher one is newer. */
      seq: z.number().int(),
      total: z.number().int(),
      /** Rows per entity type (key prefix) over all fetched rows; '' for rows without one. */
      entities: z.record(z.string(), z.number().int()).optional(),
      /** In item-collection mode: the collections and items in the view (`total` counts headers too). */
      collections: z.number().int().optional(),
      items: z.number().int().optional(),
    }),
  },
  /**
   * Collapses or expands one item collection of a collection view (with `all`, every one, also
   * those that stream in later), or with no `collapse` only reports the view's sizes, which grow
   * as a read streams in. Collapsed state belongs to the result set: a later view keeps it.
   */
  'resultsets:collections': {
    input: z.object({
      resultSetId: z.string(),
      viewId: z.string(),
      collapse: z
        .object({
          isCollapsed: z.boolean(),
          all: z.boolean().optional(),
          /** The collection's partition key value; absent: the rows that have none. */
          partitionKey: attributeValueSchema.optional(),
        })
        .optional(),
    }),
    output: z.object({
      /** Rows a window can show: one header per collection plus the items of expanded ones. */
      total: z.number().int(),
      collections: z.number().int(),
      items: z.number().int(),
      /** Rows per entity type over all fetched rows, as resultsets:view reports them. */
      entities: z.record(z.string(), z.number().int()),
      /** Where the changed collection's header now is (0 for all); rows after it moved. */
      at: z.number().int().optional(),
      /** The result set's change counter when these sizes were true: a higher one is newer. */
      seq: z.number().int().optional(),
    }),
  },
} as const;
