import { z } from 'zod';
import { sqlPlanSchema } from '../sql/plan';
import { requestIdSchema } from './operations';

/**
 * AI where the SQL is written, each task named here as the workbench shows it: `ask` ("SQL from
 * words") turns a question into a statement, `fix` ("Fix with AI") proposes a corrected statement
 * from an error, `explain` ("Explain in words") describes a plan in words. Main grounds the model in the
 * connection's catalog (table, view and attribute names; sample values only when asked), plans
 * what the model proposes and sends it back once if it does not plan. Nothing runs: the
 * proposal is shown as a diff and the user runs it.
 */
export const sqlAssistTasks = ['ask', 'fix', 'explain'] as const;
export type SqlAssistTask = (typeof sqlAssistTasks)[number];

const contextInput = z.object({
  connectionId: z.string(),
  /** Also send a few sample values per attribute (off unless the user turns it on). */
  includeSamples: z.boolean(),
});

export const sqlAssistInput = contextInput.extend({
  requestId: requestIdSchema,
  task: z.enum(sqlAssistTasks),
  /** ask: the question, in the user's words. */
  question: z.string().max(4_000).optional(),
  /** The editor's statement (fix, explain; ask uses it as context when not the starter text). */
  statement: z.string().max(100_000).optional(),
  /** fix: the error the statement gave. */
  error: z.string().max(4_000).optional(),
});
export type SqlAssistInput = z.infer<typeof sqlAssistInput>;

/** One message exactly as it went to Bedrock, for "What was sent". */
export const sentMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  text: z.string(),
});

export const sqlAssistResultSchema = z.object({
  task: z.enum(sqlAssistTasks),
  /** ask and fix: the proposed statement (not run). */
  statement: z.string().optional(),
  /** The model's words: an explanation (Explain), or a line about the proposal. */
  explanation: z.string(),
  /** The proposal's plan (what it would read and cost), when it plans. */
  plan: sqlPlanSchema.optional(),
  /** The proposal still does not plan after one retry: the sentence why. */
  planError: z.string().optional(),
  /** The first proposal did not plan (e.g. an invented table) and was sent back once. */
  retried: z.string().optional(),
  sent: z.array(sentMessageSchema),
  modelId: z.string(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
  /** On-demand list price of the tokens in US dollars, where the model's price is known. */
  costUsd: z.number().optional(),
});
export type SqlAssistResult = z.infer<typeof sqlAssistResultSchema>;

export const sqlAssistChannels = {
  /** Starts the model call under requestId; the result is the `done` event's value. */
  'sql:assist': {
    input: sqlAssistInput,
    output: z.object({ started: z.boolean() }),
    done: sqlAssistResultSchema,
  },
  /** What the tasks (ask, fix, explain) would send about the catalog, before anything is sent ("What is sent?"). */
  'sql:assistContext': { input: contextInput, output: z.object({ system: z.string(), context: z.string() }) },
} as const;
