import { z } from 'zod';
import { tableChangeSchema } from '../dynamo/table-change';
import { tableDefinitionSchema, tagSchema } from '../dynamo/table-definition';
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

export const tableAdminChannels = {
  'tables:create': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      definition: tableDefinitionSchema,
    }),
    output: started,
  },
  'tables:update': {
    input: tableRefInput.extend({ requestId: requestIdSchema, change: tableChangeSchema }),
    output: started,
  },
  'tables:delete': {
    input: tableRefInput.extend({
      requestId: requestIdSchema,
      /** The table name as the user typed it: main refuses unless it is the table's name. */
      confirmTable: z.string().max(255),
      /** On a production-labelled connection, the second confirmation. */
      confirmProduction: z.boolean().optional(),
    }),
    /** The operation's `done` value is `{ table, deleted: true }` once DynamoDB no longer describes it. */
    output: started,
  },
  'tables:tags': {
    input: tableRefInput,
    /** `supported: false` where the endpoint has no tagging (DynamoDB Local). */
    output: z.object({ supported: z.boolean(), tags: z.array(tagSchema) }),
  },
} as const;
