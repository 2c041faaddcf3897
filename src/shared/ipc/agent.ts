import { z } from 'zod';
import { agentBudgetsSchema } from './agent-events';
import { requestIdSchema } from './operations';

/**
 * The agent runs in main on the user's own Bedrock access. Permission modes are enforced in
 * main: read-only offers no write tool at all, ask confirms costly reads and every write,
 * auto-read runs reads within budget and still confirms every write.
 */
export const agentModes = ['read-only', 'ask', 'auto-read'] as const;

export const agentSettingsSchema = z.object({
  modelId: z.string().min(1).max(256),
  bedrockRegion: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'a region like us-east-1'),
  /** Credentials for Bedrock: the connection's own (default) or a named AWS profile. */
  bedrockProfile: z.string().max(128).optional(),
  /** Bedrock endpoint override (VPC endpoint, or a local test server). */
  bedrockEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  mode: z.enum(agentModes),
  budgets: agentBudgetsSchema,
  /** In "ask" mode, reads estimated above this many read capacity units need approval. */
  askAboveReadCapacity: z.number().min(0).max(100_000),
  /** Tables the agent may read; empty means every table of the connection. */
  allowedTables: z.array(z.string()).max(500),
});
export type AgentSettings = z.infer<typeof agentSettingsSchema>;

export const defaultAgentSettings: AgentSettings = {
  modelId: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  bedrockRegion: 'us-east-1',
  mode: 'auto-read',
  budgets: { modelCalls: 12, toolCalls: 24, tokens: 200_000, itemsRead: 20_000, readCapacity: 500 },
  askAboveReadCapacity: 25,
  allowedTables: [],
};

/** Common model and inference-profile ids offered in the picker (free text is allowed too). */
export const commonModelIds = [
  'us.anthropic.claude-sonnet-4-20250514-v1:0',
  'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'anthropic.claude-3-haiku-20240307-v1:0',
  'us.amazon.nova-pro-v1:0',
  'us.amazon.nova-lite-v1:0',
  'us.amazon.nova-micro-v1:0',
  'us.meta.llama3-3-70b-instruct-v1:0',
  'meta.llama3-1-70b-instruct-v1:0',
  'mistral.mistral-large-2407-v1:0',
  'mistral.mistral-small-2402-v1:0',
] as const;

export const agentChannels = {
  'agent:getSettings': {
    input: z.object({ connectionId: z.string() }),
    output: agentSettingsSchema,
  },
  'agent:saveSettings': {
    input: z.object({ connectionId: z.string(), settings: agentSettingsSchema }),
    output: agentSettingsSchema,
  },
  'agent:ask': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      question: z.string().min(1).max(20_000),
      /** Continue a conversation; omitted to start a new one. */
      conversationId: z.string().max(64).optional(),
    }),
    output: z.object({ conversationId: z.string() }),
    /** Why the model stopped (its own stop reason, or `budget`); the answer came as `agent` events. */
    done: z.object({ stopReason: z.string().optional() }),
  },
  'agent:decide': {
    input: z.object({ approvalId: z.string(), approve: z.boolean() }),
    output: z.object({ accepted: z.boolean() }),
  },
} as const;
