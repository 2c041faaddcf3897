import { z } from 'zod';
import { agentApprovalSchema } from './agent-events';

/**
 * What a connection offers coding agents over MCP's streamable HTTP, served by the running app
 * on 127.0.0.1. Off until the user switches it on; each exposed connection has its own token,
 * table allow-list and budgets, so dev and prod are never one grant.
 */
export const mcpExposureSettingsSchema = z.object({
  enabled: z.boolean(),
  /** Tables an agent may list, read or change; empty means every table of the connection. */
  tables: z.array(z.string().min(1).max(255)).max(500),
  /** Items one tool call may read. */
  maxItems: z.number().int().min(1).max(100_000),
  /** Read capacity one tool call may consume, as DynamoDB reports it. */
  maxRcu: z.number().min(0.5).max(100_000),
  /** Offer propose_changes (every write still approved by the user). */
  allowWrites: z.boolean(),
  /** Let reads Scan; refused otherwise, with the key condition that would serve instead. */
  allowScans: z.boolean(),
});
export type McpExposureSettings = z.infer<typeof mcpExposureSettingsSchema>;

export const defaultMcpExposureSettings: McpExposureSettings = {
  enabled: false,
  tables: [],
  maxItems: 1000,
  maxRcu: 50,
  allowWrites: false,
  allowScans: false,
};

export const mcpExposureSchema = mcpExposureSettingsSchema.extend({
  connectionId: z.string(),
  /** The MCP endpoint, while the app serves it. */
  url: z.string().optional(),
  /** The bearer token an agent presents; a secret, shown so the user can copy it. */
  token: z.string(),
  /** keychain: kept encrypted by the OS; launch: no keychain here, so a new one each launch. */
  tokenKept: z.enum(['keychain', 'launch']),
  /** Ready-made ways to connect, each holding the URL and the token. */
  commands: z.object({ claudeCode: z.string(), cursor: z.string(), vscode: z.string() }),
});
export type McpExposure = z.infer<typeof mcpExposureSchema>;

const connectionRef = z.object({ connectionId: z.string() });

/**
 * A write an MCP client proposed (propose_changes) that waits for the user's decision in the
 * app: the exact requests and, per item, the item as read and what the write would leave. The
 * agent's tool call waits until it is approved, rejected or expires.
 */
export const mcpProposalSchema = agentApprovalSchema.extend({
  connectionId: z.string(),
  /** The connection's label, so a proposal reads right whichever connection is open. */
  connectionLabel: z.string(),
  /** The client's own name and version from MCP initialize (clientInfo), e.g. "claude-code 1.0". */
  client: z.string(),
  /** ISO time it was proposed, and when it is rejected unless decided. */
  at: z.string(),
  expiresAt: z.string(),
});
export type McpProposal = z.infer<typeof mcpProposalSchema>;

export const mcpChannels = {
  'mcp:getExposure': { input: connectionRef, output: mcpExposureSchema },
  'mcp:saveExposure': {
    input: connectionRef.extend({ settings: mcpExposureSettingsSchema }),
    output: mcpExposureSchema,
  },
  'mcp:regenerateToken': { input: connectionRef, output: mcpExposureSchema },
  /** Writes coding agents proposed that wait for a decision, oldest first (every connection). */
  'mcp:listProposals': {
    input: z.object({}),
    output: z.object({ proposals: z.array(mcpProposalSchema) }),
  },
  /** Approves (the writes go through the write door, journaled) or rejects one proposal. */
  'mcp:decideProposal': {
    input: z.object({ id: z.string().min(1).max(100), approve: z.boolean() }),
    output: z.object({
      /** False when it no longer waited: decided in another window or the client, expired or cancelled. */
      decided: z.boolean(),
    }),
  },
} as const;
