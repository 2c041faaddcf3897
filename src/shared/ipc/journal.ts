import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { requestIdSchema } from './operations';
import { writeSourceSchema } from './write-source';
export { writeSourceSchema, type WriteSource } from './write-source';

/**
 * The undo journal (journal:*): every commit of staged changes and every bulk change keeps, per
 * item, what was stored before and what DynoTable wrote, so it can be undone later, also after a
 * restart. Ids name files in the data folder, so their shape is fixed here.
 */
export const journalIdSchema = z.string().regex(/^j[0-9a-z]{10,40}$/, 'a journal entry id');

export const journalActionSchema = z.enum(['commit', 'bulk-update', 'bulk-delete']);
export type JournalAction = z.infer<typeof journalActionSchema>;

export const undoSummarySchema = z.object({
  at: z.string(),
  restored: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
  isCancelled: z.boolean().optional(),
});

export const journalEntrySchema = z.object({
  id: journalIdSchema,
  /** ISO time the writes finished. */
  at: z.string(),
  table: z.string(),
  action: journalActionSchema,
  /** Items the entry can put back. */
  count: z.number().int(),
  /**
   * A bulk update that did not condition on what was read keeps the items as read, which someone
   * may have changed before the bulk change landed.
   */
  isBeforeAsRead: z.boolean().optional(),
  lastUndo: undoSummarySchema.optional(),
  source: writeSourceSchema.optional(),
  reason: z.string().optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export const undoItemSchema = z.object({
  key: itemSchema,
  status: z.enum(['conflict', 'failed']),
  code: z.string(),
  message: z.string(),
  /** What the journalled write left (null: it deleted the item). */
  written: itemSchema.nullable(),
  /** What DynamoDB holds now (null: no item), when it was read. */
  current: itemSchema.nullable().optional(),
  /** What undo would have put back (null: it would have deleted the item). */
  before: itemSchema.nullable(),
});
export type UndoItem = z.infer<typeof undoItemSchema>;

export const undoReportSchema = z.object({
  restored: z.number().int(),
  /** Items that already held what undo restores (an earlier undo), counted in restored. */
  alreadyRestored: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
  /** The refused and failed items, the first 1,000. */
  items: z.array(undoItemSchema),
});
export type UndoReport = z.infer<typeof undoReportSchema>;

export const journalChannels = {
  /** The newest journal entries of a connection, newest first. */
  'journal:list': {
    input: z.object({ connectionId: z.string(), table: z.string().optional() }),
    output: z.object({ entries: z.array(journalEntrySchema) }),
  },
  /**
   * Undoes one entry as an operation: each item is put back only while it still is exactly what
   * the entry wrote; others are reported with what is stored now. done.value is an UndoReport.
   */
  'journal:undo': {
    input: z.object({ connectionId: z.string(), entryId: journalIdSchema, requestId: requestIdSchema }),
    output: z.object({ started: z.boolean() }),
  },
} as const;
