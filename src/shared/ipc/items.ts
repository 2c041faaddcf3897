import { z } from 'zod';
import { attributeValueSchema, itemSchema } from '../dynamo/attribute-value';
import { keptForUndoShape } from './journal';
import { requestIdSchema } from './operations';
import { tableRefInput } from './tables';

/**
 * Schemas of the item channels (items:*, bulk:*). Conflicts are errors with the AWS name as
 * code (ConditionalCheckFailedException, TransactionCanceledException) and the item as it is
 * stored now in details, parsed with conflictDetailsSchema.
 */
export const conditionCoverageSchema = z.object({ checked: z.number().int(), total: z.number().int() });

/** What the user typed to confirm a destructive write: the table's name. */
const confirmTable = z.string().max(255).optional();

export const updateItemInput = tableRefInput.extend({
  /** The item as the user loaded it: the write is conditioned on it still being so. */
  seen: itemSchema,
  desired: itemSchema,
  /** For a key change (one transaction): the ClientRequestToken a retry reuses. */
  token: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,32}$/)
    .optional(),
});

export { keptForUndoShape };

export const updateItemOutput = z.object({
  item: itemSchema.nullable(),
  kind: z.enum(['update', 'key-change', 'none']),
  coverage: conditionCoverageSchema.optional(),
  ...keptForUndoShape,
});

export const stagedChangeSchema = z.object({
  id: z.string().min(1).max(64),
  seen: itemSchema.nullable(),
  desired: itemSchema.nullable(),
});
export type StagedChange = z.infer<typeof stagedChangeSchema>;

export const commitInput = tableRefInput.extend({
  changes: z.array(stagedChangeSchema).min(1).max(10_000),
  /** 32 characters at most; batch i is sent with `${token}-${i}`. Reuse it to retry safely. */
  token: z.string().regex(/^[A-Za-z0-9]{1,32}$/),
  confirmTable,
});

export const changeResultSchema = z.object({
  id: z.string(),
  status: z.enum(['written', 'conflict', 'failed', 'not-attempted']),
  /** The AWS cancellation code for this change (ConditionalCheckFailed, TransactionConflict, ...). */
  code: z.string().optional(),
  message: z.string().optional(),
  /** The item as stored now, when DynamoDB returned it (ALL_OLD on a failed condition). */
  current: itemSchema.nullable().optional(),
  /** A fresh sign-in repairs the failure: the session expired after earlier batches landed. */
  canSignIn: z.boolean().optional(),
});
export type ChangeResult = z.infer<typeof changeResultSchema>;

export const commitOutput = z.object({
  results: z.array(changeResultSchema),
  batches: z.number().int(),
  committedBatches: z.number().int(),
  ...keptForUndoShape,
});

export const conflictDetailsSchema = z.object({
  /** The item as stored now; null when it no longer exists. */
  current: itemSchema.nullable(),
});

export const deleteItemInput = tableRefInput.extend({ key: itemSchema, expected: itemSchema, confirmTable });

export const attributePathSchema = z
  .array(z.union([z.string(), z.number().int().nonnegative()]))
  .min(1)
  .max(32);

export const bulkSourceSchema = z.union([
  z.object({ resultSetId: z.string() }),
  z.object({ items: z.array(itemSchema).min(1).max(100_000) }),
]);

export const bulkActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delete') }),
  z.object({
    type: z.literal('update'),
    set: z.array(z.object({ path: attributePathSchema, value: attributeValueSchema })).max(100),
    remove: z.array(attributePathSchema).max(100),
  }),
]);
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkInput = tableRefInput.extend({
  source: bulkSourceSchema,
  action: bulkActionSchema,
  /** Also require every attribute to still hold the value that was read (slower, safest). */
  conditionOnSeen: z.boolean().default(true),
  confirmTable,
});

export const bulkStartInput = bulkInput.extend({ requestId: requestIdSchema });

export const bulkPreviewOutput = z.object({
  count: z.number().int(),
  sample: z.array(itemSchema),
  /** The request for the first item, as it will be sent. */
  request: z.record(z.string(), z.unknown()).nullable(),
  needsConfirmation: z.boolean(),
});

export const bulkReportSchema = z.object({
  succeeded: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
  failures: z.array(z.object({ key: itemSchema, code: z.string(), message: z.string() })),
  /** The undo journal entry that can put back what this bulk change wrote (journal:undo). */
  journalId: z.string().optional(),
  journalProblem: z.string().optional(),
});
export type BulkReport = z.infer<typeof bulkReportSchema>;

/** Item channels beyond get/create/delete, spread into the contract. */
export const itemChannels = {
  /** Save from the editor: UpdateItem of the changed attributes, or a key-change transaction. */
  'items:update': { input: updateItemInput, output: updateItemOutput },
  /** Commit staged changes through TransactWriteItems batches. */
  'items:commit': { input: commitInput, output: commitOutput },
  /** Count, sample and request of a bulk delete/update, before it runs. */
  'bulk:preview': { input: bulkInput, output: bulkPreviewOutput },
  /** Runs a bulk delete/update as an operation. */
  'bulk:start': { input: bulkStartInput, output: z.object({ started: z.boolean() }), done: bulkReportSchema },
} as const;
