import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { requestIdSchema } from './operations';
import { writeSourceSchema } from './write-source';
export { writeSourceSchema, type WriteSource } from './write-source';

/**
 * The undo journal (journal:*): every write DynoTable makes through its one write door (editor,
 * grid, bulk, import, copy with overwrite, fix, undo, agent, MCP; not purge) keeps, per item,
 * what was stored before and what the write left, so it can be undone later, also after a
 * restart. Ids name files in the data folder, so their shape is fixed here.
 */
export const journalIdSchema = z.string().regex(/^j[0-9a-z]{10,40}$/, 'a journal entry id');

/**
 * What kind of write an entry holds: changes conditioned on the item as seen (`commit`: the
 * grid, the editor, the agent, MCP), a bulk update or delete (also the pre-flight fix), whole
 * items put (`put`: import, copy) or an undo of another entry.
 */
/** The undo journal entry a write made (journal:undo), or why it could not keep one. */
export const keptForUndoShape = {
  /** The undo journal entry that can put back what this write did (journal:undo). */
  journalId: z.string().optional(),
  /** Why the writes could not be kept for undo (they were made all the same). */
  journalProblem: z.string().optional(),
};

export const journalActionSchema = z.enum(['commit', 'bulk-update', 'bulk-delete', 'put', 'undo']);
export type JournalAction = z.infer<typeof journalActionSchema>;

/** Entries written before writes named their source held only grid commits and bulk changes. */
function withLegacySource(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || 'source' in value) return value;
  const action = (value as { action?: unknown }).action;
  const isCommit = action === 'commit';
  return {
    ...value,
    source: isCommit ? 'grid' : 'bulk',
    reason: isCommit ? 'Committed staged changes' : 'Bulk change',
  };
}

export const undoSummarySchema = z.object({
  at: z.string(),
  restored: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
  isCancelled: z.boolean().optional(),
  /**
   * The undo's own journal entry (its writes, journaled in turn): undoing that entry redoes this
   * one. Kept from the undo before when a later one found every item already put back.
   */
  journalId: z.string().optional(),
});

export const journalEntrySchema = z.preprocess(
  withLegacySource,
  z.object({
    id: journalIdSchema,
    /** ISO time the writes finished. */
    at: z.string(),
    table: z.string(),
    action: journalActionSchema,
    /** Who asked for the writes. */
    source: writeSourceSchema,
    /** What the user did, in words ("Saved in the item editor", "Bulk update of 40 items"). */
    reason: z.string(),
    /** Items the entry can put back. */
    count: z.number().int(),
    /**
     * A bulk update that did not condition on what was read keeps the items as read, which someone
     * may have changed before the bulk change landed.
     */
    isBeforeAsRead: z.boolean().optional(),
    /**
     * The job writing it was stopped (DynoTable quit or was killed) before it finished. Its items
     * include the writes it had started but not heard back from; undo reads each one and puts back
     * only those that landed.
     */
    isInterrupted: z.boolean().optional(),
    lastUndo: undoSummarySchema.optional(),
  }),
);
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
  /**
   * A later journaled write of DynoTable's own that touched this item, the newest: undoing it
   * first (then this entry) puts both back in order. Absent when the change came from elsewhere.
   */
  laterEntry: z
    .object({ id: journalIdSchema, source: writeSourceSchema, at: z.string(), reason: z.string() })
    .optional(),
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
  /** The journal entry of the undo's own writes, which can be undone in turn. */
  journalId: z.string().optional(),
  journalProblem: z.string().optional(),
});
export type UndoReport = z.infer<typeof undoReportSchema>;

/**
 * How much of the journal is kept per connection, from `<data>/journal/settings.json` (each
 * field optional there): the newest maxEntries entries, none older than maxAgeDays, and no more
 * than maxMegabytes of files together (the newest entry is always kept).
 */
export const journalLimitsSchema = z.object({
  maxEntries: z.number().int(),
  maxAgeDays: z.number(),
  maxMegabytes: z.number(),
});
export type JournalLimits = z.infer<typeof journalLimitsSchema>;

/** A journal file that could not be read, moved aside (never deleted) and why. */
export const setAsideFileSchema = z.object({
  /** Where the file is kept now (the entry's other files sit next to it). */
  file: z.string(),
  reason: z.string(),
});

export const journalChannels = {
  /** The newest journal entries of a connection, newest first. */
  'journal:list': {
    input: z.object({ connectionId: z.string(), table: z.string().optional() }),
    output: z.object({
      entries: z.array(journalEntrySchema),
      /** The bounds in force. */
      limits: journalLimitsSchema.optional(),
      /** Why settings.json was not used, when it could not be. */
      limitsProblem: z.string().optional(),
      /** Journal files of this connection that could not be read, kept aside. */
      setAside: z.array(setAsideFileSchema).optional(),
    }),
  },
  /**
   * Undoes one entry as an operation: each item is put back only while it still is exactly what
   * the entry wrote; others are reported with what is stored now. done.value is an UndoReport.
   */
  'journal:undo': {
    input: z.object({ connectionId: z.string(), entryId: journalIdSchema, requestId: requestIdSchema }),
    output: z.object({ started: z.boolean() }),
    done: undoReportSchema,
  },
} as const;
