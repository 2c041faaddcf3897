import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { keySchemaSchema } from './tables';

export const agentBudgetsSchema = z.object({
  modelCalls: z.number().int().min(1).max(100),
  toolCalls: z.number().int().min(1).max(500),
  tokens: z.number().int().min(1000).max(5_000_000),
  itemsRead: z.number().int().min(1).max(10_000_000),
  readCapacity: z.number().min(0.5).max(1_000_000),
});
export type AgentBudgets = z.infer<typeof agentBudgetsSchema>;

export const agentUsageSchema = z.object({
  modelCalls: z.number().int(),
  toolCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  itemsRead: z.number().int(),
  readCapacity: z.number(),
});
export type AgentUsage = z.infer<typeof agentUsageSchema>;

export const agentStepSchema = z.object({
  id: z.string(),
  tool: z.string(),
  input: z.unknown(),
  status: z.enum(['running', 'waiting-approval', 'done', 'error', 'refused']),
  summary: z.string().optional(),
  resultSetId: z.string().optional(),
  /** Key attributes of the result set's rows, so the grid shows them first. */
  keys: keySchemaSchema.optional(),
  items: z.number().int().optional(),
  consumedCapacity: z.number().optional(),
});
export type AgentStep = z.infer<typeof agentStepSchema>;

export const agentApprovalSchema = z.object({
  id: z.string(),
  kind: z.enum(['write', 'read']),
  /** One sentence: what will happen if the user approves. */
  summary: z.string(),
  /** The exact DynamoDB requests that will be sent, in the AWS API's JSON form. */
  requests: z.array(z.record(z.string(), z.unknown())),
  /**
   * Per write, the item as it was read when the card was built and what the write would leave
   * (null: no item), so the card can show the change as a diff. Same order as `requests`.
   */
  items: z
    .array(
      z.object({
        table: z.string(),
        key: itemSchema,
        before: itemSchema.nullable(),
        after: itemSchema.nullable(),
      }),
    )
    .optional(),
});
export type AgentApproval = z.infer<typeof agentApprovalSchema>;

export const agentEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), delta: z.string() }),
  z.object({ kind: z.literal('step'), step: agentStepSchema }),
  z.object({ kind: z.literal('approval'), approval: agentApprovalSchema }),
  z.object({
    kind: z.literal('approval-resolved'),
    id: z.string(),
    approved: z.boolean(),
    outcome: z.string(),
  }),
  z.object({ kind: z.literal('usage'), usage: agentUsageSchema, budgets: agentBudgetsSchema }),
  z.object({ kind: z.literal('notice'), message: z.string() }),
]);
export type AgentEvent = z.infer<typeof agentEventSchema>;
