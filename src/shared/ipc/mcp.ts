import { z } from 'zod';

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

export const mcpChannels = {
  'mcp:getExposure': { input: connectionRef, output: mcpExposureSchema },
  'mcp:saveExposure': {
    input: connectionRef.extend({ settings: mcpExposureSettingsSchema }),
    output: mcpExposureSchema,
  },
  'mcp:regenerateToken': { input: connectionRef, output: mcpExposureSchema },
} as const;
