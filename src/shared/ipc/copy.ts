import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { keptForUndoShape } from './journal';
import { requestIdSchema } from './operations';
import { readSpecSchema } from './query';
import { entityViewSchema } from '../sql/catalog';
import { setAsideNoticeSchema } from './data-files';

/**
 * Copying items between two tables, on one connection or two (profile ↔ profile, region ↔
 * region, AWS ↔ DynamoDB Local). Runs as an operation; every copy has a copyId whose checkpoint
 * lets `copy:resume` continue it after a cancel, a crash or expired credentials.
 */
export const copyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a copy id');

export const copySourceSchema = z.union([
  // The result-set and view forms first: zod objects drop unknown keys, so the spec form would swallow them.
  z.object({
    connectionId: z.string(),
    table: z.string().min(1).max(255),
    /** The rows a read already fetched (the current result set), as they were fetched. */
    resultSetId: z.string(),
  }),
  z.object({
    connectionId: z.string(),
    table: z.string().min(1).max(255),
    /**
     * A SQL entity view of `table` (one saved with the connection, or a detected one), run by
     * the SQL workbench as `SELECT * FROM table.view`: its planner picks the read (a Query on
     * the view's key condition), and each row is one whole item.
     */
    view: entityViewSchema.shape.name,
  }),
  z.object({
    connectionId: z.string(),
    table: z.string().min(1).max(255),
    /**
     * What to read, as the Items tab's builder spells it: a Scan of the table or an index, a Query,
     * a filter. Absent: the whole table. Scans run in parallel segments; a Query runs as one.
     */
    spec: readSpecSchema.optional(),
  }),
]);
export type CopySource = z.infer<typeof copySourceSchema>;

export const copyMappingSchema = z.object({
  /**
   * String values that start with `from` get `to` instead (`TENANT#a` → `TENANT#b`), in the
   * named top-level attributes, or when none are named in every key attribute of the source's
   * table and indexes.
   */
  prefixes: z
    .array(
      z.object({
        from: z.string().min(1).max(1024),
        to: z.string().max(1024),
        attributes: z.array(z.string().min(1).max(65_535)).max(100).optional(),
      }),
    )
    .max(20)
    .default([]),
  /** Top-level attributes left out of every copied item. */
  drop: z.array(z.string().min(1).max(65_535)).max(200).default([]),
  /** Top-level attributes written under another name. */
  rename: z
    .array(z.object({ from: z.string().min(1).max(65_535), to: z.string().min(1).max(65_535) }))
    .max(200)
    .default([]),
});
export type CopyMapping = z.infer<typeof copyMappingSchema>;

export const conflictPolicySchema = z.discriminatedUnion('policy', [
  /** Conditional PutItem on the key being free: an item already in the target is left alone. */
  z.object({ policy: z.literal('skip') }),
  /** BatchWriteItem: the source's item replaces the target's. */
  z.object({ policy: z.literal('overwrite') }),
  /**
   * Conditional PutItem: written when the target has no such item or its `attribute` is lower
   * than the source's (numbers, or ISO dates as strings); otherwise skipped.
   */
  z.object({ policy: z.literal('newer'), attribute: z.string().min(1).max(65_535) }),
]);
export type ConflictPolicy = z.infer<typeof conflictPolicySchema>;

export const copyStartInput = z.object({
  requestId: requestIdSchema,
  source: copySourceSchema,
  target: z.object({
    connectionId: z.string(),
    table: z.string().min(1).max(255),
    /** Create the table from the source's definition (keys, indexes, TTL, billing) when missing. */
    create: z.boolean().default(false),
    /** With `create`: copy the source's tags too (not on DynamoDB Local, which keeps none). */
    includeTags: z.boolean().default(false),
  }),
  mapping: copyMappingSchema.default({ prefixes: [], drop: [], rename: [] }),
  conflict: conflictPolicySchema.default({ policy: 'overwrite' }),
  /** Parallel Scan segments, and writers. */
  segments: z.number().int().min(1).max(64).default(4),
  /** Items per second read from the source; absent: as fast as DynamoDB answers. */
  readRate: z.number().positive().max(1_000_000).optional(),
  /** Items per second written to the target; absent: as fast as DynamoDB takes them. */
  writeRate: z.number().positive().max(1_000_000).optional(),
  /**
   * Instead of readRate: a share (0–1] of the source table's provisioned read capacity, counted
   * in the capacity units each read consumed. Refused on an on-demand table, which has none.
   */
  readShare: z.number().gt(0).max(1).optional(),
  /** Instead of writeRate: a share (0–1] of the target table's provisioned write capacity. */
  writeShare: z.number().gt(0).max(1).optional(),
  /** Read both sides again at the end and compare counts and checksums of every copied item. */
  verify: z.boolean().default(true),
});
export type CopyStartInput = z.output<typeof copyStartInput>;

export const copyFailureSchema = z.object({
  key: itemSchema,
  code: z.string(),
  message: z.string(),
});

export const copyVerificationSchema = z.object({
  /** Items the source holds (after filter and mapping). */
  sourceCount: z.number().int(),
  /** Of those keys, items the target holds. */
  targetCount: z.number().int(),
  /** Order-independent checksum of every item's canonical form, on each side. */
  sourceChecksum: z.string(),
  targetChecksum: z.string(),
  checksumsMatch: z.boolean(),
  /** Keys whose item differs or is missing in the target (at most 100). */
  differingKeys: z.array(itemSchema),
});
export type CopyVerification = z.infer<typeof copyVerificationSchema>;

export const copyReportSchema = z.object({
  copyId: z.string(),
  source: z.object({ connectionId: z.string(), table: z.string() }),
  target: z.object({ connectionId: z.string(), table: z.string() }),
  /** True when this copy created the target table. */
  created: z.boolean(),
  complete: z.boolean(),
  itemsRead: z.number().int(),
  itemsWritten: z.number().int(),
  itemsSkipped: z.number().int(),
  itemsFailed: z.number().int(),
  /** Each failed item with its key (at most 1000). */
  failures: z.array(copyFailureSchema),
  verified: copyVerificationSchema.optional(),
  notes: z.array(z.string()),
  /**
   * Into a table that existed before the copy, every item put keeps the one it replaced: this
   * run's undo journal entry. A copy that created its target has none (delete the table instead).
   */
  ...keptForUndoShape,
});
export type CopyReport = z.infer<typeof copyReportSchema>;

export const copyCheckpointSummarySchema = z.object({
  copyId: z.string(),
  source: z.object({ connectionId: z.string(), table: z.string() }),
  target: z.object({ connectionId: z.string(), table: z.string() }),
  state: z.enum(['running', 'stopped', 'complete']),
  itemsRead: z.number().int(),
  itemsWritten: z.number().int(),
  savedAt: z.string(),
});
export type CopyCheckpointSummary = z.infer<typeof copyCheckpointSummarySchema>;

export const copyListSchema = z.object({
  copies: z.array(copyCheckpointSummarySchema),
  /** Checkpoints that could not be read: set aside (renamed, kept), each with its sentence. */
  setAside: z.array(setAsideNoticeSchema).optional(),
});
export type CopyList = z.infer<typeof copyListSchema>;

export const copyChannels = {
  /**
   * Starts a copy; progress events carry `copy` counts, done.value is a CopyReport. The copyId
   * names its checkpoint for copy:resume.
   */
  'copy:start': {
    input: copyStartInput,
    output: z.object({ started: z.boolean(), copyId: copyIdSchema }),
    done: copyReportSchema,
  },
  /** Continues a stopped copy from its checkpoint, with the settings it started with. */
  'copy:resume': {
    input: z.object({ requestId: requestIdSchema, copyId: copyIdSchema }),
    output: z.object({ started: z.boolean(), copyId: copyIdSchema }),
    done: copyReportSchema,
  },
  /**
   * Forgets an unfinished copy (its checkpoint on disk); the items it wrote stay in the target.
   * Refused while the copy runs.
   */
  'copy:discard': {
    input: z.object({ copyId: copyIdSchema }),
    output: z.object({ discarded: z.boolean() }),
  },
  /**
   * Copies with a checkpoint on this machine (read from disk, so they survive a restart), newest
   * first; one cut off by a crash or a quit is listed as stopped and can be resumed or discarded.
   */
  'copy:list': {
    input: z.object({}).strict(),
    output: copyListSchema,
  },
} as const;
