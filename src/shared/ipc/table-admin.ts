import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { tableChangeSchema } from '../dynamo/table-change';
import { tableDefinitionSchema, tagSchema } from '../dynamo/table-definition';
import { setAsideNoticeSchema } from './data-files';
import { jobIdSchema } from './jobs';
import { requestIdSchema } from './operations';
import { tableRefInput, tableSummarySchema } from './tables';

/**
 * Creating and changing tables. Each call is refused on a read-only connection before anything
 * is sent, checks its input with the same rules the form shows, then runs as an operation under
 * `requestId` that follows the table until it is ACTIVE again; `ops:cancel` stops the following,
 * never the change DynamoDB already accepted. The `done` event's value is a `tableAdminResult`.
 */
export const tableAdminResultSchema = z.object({
  summary: tableSummarySchema,
  /** Sentences about what the endpoint accepted but did not apply (DynamoDB Local ignores table class and tags). */
  notes: z.array(z.string()),
});
export type TableAdminResult = z.infer<typeof tableAdminResultSchema>;

const started = z.object({ started: z.boolean() });

export const purgeEstimateSchema = z.object({
  itemCount: z.number().int(),
  sizeBytes: z.number(),
  readUnits: z.number(),
  writeUnits: z.number(),
  seconds: z.number().optional(),
  /** Cost, duration, and the comparison with delete-and-recreate, as sentences. */
  sentences: z.array(z.string()),
});

export const purgeResultSchema = z.object({
  table: z.string(),
  deleted: z.number().int(),
  /** Items gone before their delete reached them (someone else deleted them). */
  alreadyGone: z.number().int(),
  failed: z.number().int(),
  failures: z.array(z.object({ key: itemSchema, code: z.string(), message: z.string() })),
  /** Read units the Scans consumed, as DynamoDB reported them. */
  readUnits: z.number(),
  /** True when a last Scan found no item left. */
  isEmpty: z.boolean(),
  /**
   * Records of this table's earlier purges that could not be read when the emptied table's stopped
   * purges were forgotten: set aside (renamed, kept), each with its sentence.
   */
  setAside: z.array(setAsideNoticeSchema).optional(),
});
export type PurgeResult = z.infer<typeof purgeResultSchema>;

export const tableAdminChannels = {
  'tables:create': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      definition: tableDefinitionSchema,
    }),
    output: started,
    done: tableAdminResultSchema,
  },
  'tables:update': {
    input: tableRefInput.extend({ requestId: requestIdSchema, change: tableChangeSchema }),
    output: started,
    done: tableAdminResultSchema,
  },
  'tables:delete': {
    input: tableRefInput.extend({
      requestId: requestIdSchema,
      /** The table name as the user typed it: main refuses unless it is the table's name. */
      confirmTable: z.string().max(255),
      /** On a production-labelled connection, the second confirmation. */
      confirmProduction: z.boolean().optional(),
    }),
    output: started,
    /** Once DynamoDB no longer describes the table. */
    done: z.object({ table: z.string(), deleted: z.literal(true) }),
  },
  'tables:purgePreview': {
    input: tableRefInput,
    output: purgeEstimateSchema,
  },
  'tables:purge': {
    input: tableRefInput.extend({
      requestId: requestIdSchema,
      /** The table name as the user typed it: main refuses unless it is the table's name. */
      confirmTable: z.string().max(255),
      /** On a production-labelled connection, the second confirmation. */
      confirmProduction: z.boolean().optional(),
      /** Deletes per second at most, to leave provisioned capacity to the application. */
      maxPerSecond: z.number().int().min(1).max(100_000).optional(),
      /**
       * Resumes this stopped purge (jobs:stopped lists it): the same confirmations, and its
       * record goes on counting instead of a new one being kept.
       */
      resumeJobId: jobIdSchema.optional(),
    }),
    output: started,
    /** A cancelled purge carries no value; what it deleted so far is in the last progress. */
    done: purgeResultSchema,
  },
  'tables:tags': {
    input: tableRefInput,
    /** `supported: false` where the endpoint has no tagging (DynamoDB Local). */
    output: z.object({ supported: z.boolean(), tags: z.array(tagSchema) }),
  },
} as const;
