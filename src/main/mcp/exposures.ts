import { z } from 'zod';
import {
  defaultMcpExposureSettings,
  type McpExposure,
  type McpExposureSettings,
  mcpExposureSettingsSchema,
} from '../../shared/ipc/mcp';
import { writeFileAtomic } from '../files/atomic-file';
import type { SecretStore } from '../core/context';
import { readDataFileOrFail } from '../core/data-files';
import { createToken } from '../server/auth';
import { dataFolder } from '../files/data-folder';

const fileSchema = z.object({
  /** The port the app last served MCP on, kept so that the connect commands stay true. */
  port: z.number().int().min(1).max(65_535).optional(),
  connections: z.record(z.string(), mcpExposureSettingsSchema),
});
type ExposureFile = z.infer<typeof fileSchema>;

/** The name a connection's token is kept under in the secret store. */
const tokenName = (connectionId: string): string => `mcp-token-${connectionId}`;

/** A name a client shows for the server: dynotable-<connection label>, in letters, digits and dashes. */
export function serverName(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `dynotable-${slug || 'connection'}`;
}

/** How Claude Code, Cursor and VS Code are told about one exposed connection. */
export function connectCommands(name: string, url: string, token: string): McpExposure['commands'] {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    claudeCode: `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${token}"`,
    cursor: JSON.stringify({ mcpServers: { [name]: { url, headers } } }, null, 2),
    vscode: JSON.stringify({ servers: { [name]: { type: 'http', url, headers } } }, null, 2),
  };
}

/**
 * Per-connection MCP exposure settings in one JSON file, and each connection's bearer token in
 * the secret store (the OS keychain in the desktop app). Where there is no keychain (browser
 * mode), a token lives in memory for this launch only, never on disk in plain text.
 */
export class McpExposureStore {
  private readonly file: string;
  private readonly launchTokens = new Map<string, string>();

  constructor(
    dataDir: string,
    private readonly secrets: SecretStore,
  ) {
    this.file = dataFolder.mcpExposures(dataDir);
  }

  private async readAll(): Promise<ExposureFile> {
    const all = await readDataFileOrFail(this.file, {
      what: 'Your MCP settings',
      parse: (json) => fileSchema.parse(json),
      held: (text) => {
        const n = text.match(/"allowScans"\s*:/g)?.length ?? 0;
        return n > 0 ? `MCP settings of ${n} connection${n === 1 ? '' : 's'}` : undefined;
      },
      instead: 'Every connection is off for coding agents until you switch it on again.',
    });
    return all ?? { connections: {} };
  }

  async settings(connectionId: string): Promise<McpExposureSettings> {
    const { connections } = await this.readAll();
    return Object.hasOwn(connections, connectionId)
      ? (connections[connectionId] ?? defaultMcpExposureSettings)
      : defaultMcpExposureSettings;
  }

  async enabled(): Promise<string[]> {
    const { connections } = await this.readAll();
    return Object.entries(connections)
      .filter(([, s]) => s.enabled)
      .map(([id]) => id);
  }

  async save(connectionId: string, settings: McpExposureSettings): Promise<void> {
    const all = await this.readAll();
    const connections = Object.assign(Object.create(null) as ExposureFile['connections'], all.connections);
    connections[connectionId] = settings;
    await writeFileAtomic(this.file, JSON.stringify({ ...all, connections }, null, 2));
  }

  async port(): Promise<number | undefined> {
    return (await this.readAll()).port;
  }

  async savePort(port: number): Promise<void> {
    const all = await this.readAll();
    if (all.port !== port) await writeFileAtomic(this.file, JSON.stringify({ ...all, port }, null, 2));
  }

  /** The connection's token, made on first use. */
  async token(connectionId: string): Promise<{ token: string; kept: McpExposure['tokenKept'] }> {
    const launch = this.launchTokens.get(connectionId);
    if (launch) return { token: launch, kept: 'launch' };
    const saved = await this.secrets.loadText(tokenName(connectionId));
    if (saved) return { token: saved, kept: 'keychain' };
    return this.regenerate(connectionId);
  }

  async regenerate(connectionId: string): Promise<{ token: string; kept: McpExposure['tokenKept'] }> {
    const token = createToken();
    if (this.secrets.isAvailable()) {
      await this.secrets.saveText(tokenName(connectionId), token);
      this.launchTokens.delete(connectionId);
      return { token, kept: 'keychain' };
    }
    this.launchTokens.set(connectionId, token);
    return { token, kept: 'launch' };
  }
}
