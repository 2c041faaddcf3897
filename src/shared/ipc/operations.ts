import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { appErrorSchema } from '../errors';
import { agentEventSchema } from './agent-events';
import { mcpProposalSchema } from './mcp';
import { streamRecordSchema } from './stream-record';
import { writeSourceSchema } from './write-source';

/**
 * Long work (scans, queries, the agent) runs under a requestId chosen by the caller, can be
 * cancelled with `ops:cancel`, and reports through one event stream. Every operation ends in
 * exactly one of done | cancelled | error; `seq` increases by one per event of a request.
 */
/** Rows a fresh read's first page event carries: the grid's first block. */
export const FIRST_WINDOW_ROWS = 100;

export const requestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a request id');

const base = { requestId: requestIdSchema, seq: z.number().int().nonnegative() };

export const progressSchema = z.object({
  items: z.number().int(),
  pages: z.number().int(),
  /** Read capacity units consumed so far, as DynamoDB reported them. */
  consumedCapacity: z.number(),
  /** Items DynamoDB looked at before filters (ScannedCount). */
  scanned: z.number().int().optional(),
  /** 0..1 when the total is known (a table's approximate item count). */
  fraction: z.number().min(0).max(1).optional(),
  message: z.string().optional(),
  /** Long writes (a purge): items that failed, items per second lately, seconds left at that rate. */
  failed: z.number().int().optional(),
  perSecond: z.number().optional(),
  etaSeconds: z.number().optional(),
  /** A copy's counts (copy:start / copy:resume); its failures, rate and ETA are the fields above. */
  copy: z
    .object({
      read: z.number().int(),
      written: z.number().int(),
      skipped: z.number().int(),
      phase: z.enum(['preparing', 'copying', 'verifying']),
    })
    .optional(),
  /**
   * An SSO device sign-in waiting for the user: the page to open, the code it must show, and
   * whether DynoTable already opened it in the user's browser (desktop). Structured, so the
   * UI never has to pick them out of the sentence.
   */
  verification: z
    .object({ url: z.string().max(2048), userCode: z.string().max(64), isOpened: z.boolean() })
    .optional(),
});
export type Progress = z.infer<typeof progressSchema>;

/**
 * An assume-role profile with `mfa_serial` needs a code: main waits for `connections:mfaCode`
 * with this event's requestId (the prompt id). The prompt then ends like any operation: done
 * (answered), cancelled, or error (no answer within five minutes).
 */
export const mfaPromptSchema = z.object({
  /** The device, as `mfa_serial` names it (arn:aws:iam::123456789012:mfa/alice, or a hardware serial). */
  serialNumber: z.string().max(2048),
  profile: z.string().max(256),
  expiresAt: z.string(),
});
export type MfaPrompt = z.infer<typeof mfaPromptSchema>;

/** The requestId of `resultsets` events, which belong to no operation. */
export const RESULT_SETS_REQUEST_ID = 'resultsets-written';
/** The requestId of `written` events: items DynoTable wrote, for item editors to follow. */
export const WRITTEN_REQUEST_ID = 'items-written';
/** The requestId of `journal` events: a table's undo journal changed (History reads it again). */
export const JOURNAL_REQUEST_ID = 'journal-changed';
/** The requestId of `proposals` events: coding agents' writes waiting for a decision. */
export const PROPOSALS_REQUEST_ID = 'mcp-proposals';

/** A result set that a write DynoTable made changed, with its views' sizes. */
export const resultSetChangeSchema = z.object({
  resultSetId: z.string(),
  /** Rows in the result set now. */
  total: z.number().int(),
  /** A write may have changed which rows its read returns in a way DynoTable could not evaluate. */
  isStale: z.boolean(),
  /** Each view of the set (by id) with its sizes now; `seq` orders them against other answers. */
  views: z.array(
    z.object({
      viewId: z.string(),
      total: z.number().int(),
      entities: z.record(z.string(), z.number().int()).optional(),
      collections: z.number().int().optional(),
      items: z.number().int().optional(),
      seq: z.number().int(),
    }),
  ),
  /** Rows a write rewrote in place, as the read shows them: windows show them before reading again. */
  replaced: z.array(z.object({ item: itemSchema, mark: z.enum(['changed', 'new']).optional() })).optional(),
});
export type ResultSetChangeEvent = z.infer<typeof resultSetChangeSchema>;

export const operationEventSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('progress'), progress: progressSchema }),
  z.object({
    ...base,
    type: z.literal('page'),
    resultSetId: z.string(),
    /** Rows added by this page, and rows in the result set after it. */
    added: z.number().int(),
    total: z.number().int(),
    /**
     * A fresh read's first page only: its first rows (up to FIRST_WINDOW_ROWS) in fetched order
     * and the column order, as resultsets:window would answer, so a grid paints them without
     * asking first (one round trip less on a table's first open).
     */
    first: z.object({ rows: z.array(itemSchema), columns: z.array(z.string()) }).optional(),
  }),
  z.object({
    ...base,
    type: z.literal('done'),
    progress: progressSchema,
    /** Opaque cursor to continue (typed key values preserved), absent when nothing is left. */
    cursor: z.string().optional(),
    value: z.unknown().optional(),
  }),
  z.object({ ...base, type: z.literal('mfa'), mfa: mfaPromptSchema }),
  /**
   * Writes DynoTable made (a save, a commit, a bulk change, an import, an approved agent write)
   * changed these result sets in place; windows showing them read them again.
   */
  z.object({ ...base, type: z.literal('resultsets'), changes: z.array(resultSetChangeSchema) }),
  /**
   * What DynamoDB now holds for items DynoTable wrote (null: no item), whoever asked: an item
   * editor showing one of them follows it, or shows the three-way view when it has unsaved edits.
   */
  z.object({
    ...base,
    type: z.literal('written'),
    connectionId: z.string(),
    table: z.string(),
    source: writeSourceSchema.optional(),
    items: z.array(z.object({ key: itemSchema, item: itemSchema.nullable() })),
  }),
  /**
   * The undo journal of a table changed: an entry was finished (any write through the door, an
   * undo's own writes) or an undo's outcome recorded on the entry it undid. An open History reads
   * its list again.
   */
  z.object({ ...base, type: z.literal('journal'), connectionId: z.string(), table: z.string() }),
  /** New records of a table's DynamoDB stream (streams:tail), in the order DynamoDB keeps them per shard. */
  z.object({
    ...base,
    type: z.literal('stream'),
    records: z.array(streamRecordSchema),
    /** Shards being read now. */
    shards: z.number().int(),
  }),
  /** Every write coding agents proposed over MCP that waits for the user now (the whole list). */
  z.object({ ...base, type: z.literal('proposals'), proposals: z.array(mcpProposalSchema) }),
  /** The agent's stream: text deltas, tool steps, approval cards, usage. */
  z.object({ ...base, type: z.literal('agent'), event: agentEventSchema }),
  z.object({
    ...base,
    type: z.literal('cancelled'),
    progress: progressSchema,
    cursor: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('error'), error: appErrorSchema, cursor: z.string().optional() }),
]);
export type OperationEvent = z.infer<typeof operationEventSchema>;
export type OperationEventType = OperationEvent['type'];
