import type { McpExposure, McpExposureSettings } from '../../shared/ipc/mcp';
import type { CoreContext, ServiceSlot } from '../core/context';
import { stdioProposalInbox } from './app-inbox';
import { connectCommands, McpExposureStore, serverName } from './exposures';
import { type Exposed, type McpHttpListener, startMcpHttp } from './http-transport';
import { proposalBoard } from './proposals';
import { McpToolSession } from './tool-session';

/**
 * The app's MCP endpoint: exposure settings and tokens, the 127.0.0.1 listener (started once a
 * connection is switched on, on the port it used before so connect commands stay true), and one
 * tool session per exposed connection, shared by that connection's MCP sessions.
 */
export class McpHttpService {
  readonly store: McpExposureStore;
  private listener?: Promise<McpHttpListener>;
  private readonly toolSessions = new Map<string, McpToolSession>();

  constructor(private readonly ctx: CoreContext) {
    this.store = new McpExposureStore(ctx.dataDir, ctx.secrets);
  }

  /**
   * At launch: serve again if any connection was left switched on, and show the writes that
   * `dynotable mcp` servers propose through the data folder (their approvals are the app's too).
   */
  async resume(): Promise<void> {
    const inbox = stdioProposalInbox(this.ctx).start();
    if ((await this.store.enabled()).length > 0) await this.listen();
    await inbox;
  }

  async get(connectionId: string): Promise<McpExposure> {
    const connection = await this.ctx.connections.get(connectionId);
    const settings = await this.store.settings(connectionId);
    const { token, kept } = await this.store.token(connectionId);
    const listener = settings.enabled ? await this.listen() : await this.listener;
    const port = listener?.port ?? (await this.store.port());
    const url = port
      ? `http://127.0.0.1:${port}/mcp/${encodeURIComponent(connectionId)}`
      : `http://127.0.0.1:<port>/mcp/${encodeURIComponent(connectionId)}`;
    return {
      ...settings,
      connectionId,
      ...(settings.enabled ? { url } : {}),
      token,
      tokenKept: kept,
      commands: connectCommands(serverName(connection.label), url, token),
    };
  }

  /** New settings end the connection's MCP sessions: a client reconnects under the new grant. */
  async save(connectionId: string, settings: McpExposureSettings): Promise<McpExposure> {
    await this.ctx.connections.get(connectionId);
    await this.store.save(connectionId, settings);
    await this.endSessions(connectionId);
    return this.get(connectionId);
  }

  async regenerateToken(connectionId: string): Promise<McpExposure> {
    await this.ctx.connections.get(connectionId);
    await this.store.regenerate(connectionId);
    await this.endSessions(connectionId);
    return this.get(connectionId);
  }

  async close(): Promise<void> {
    const listener = await this.listener?.catch(() => undefined);
    this.listener = undefined;
    await listener?.close();
  }

  private async endSessions(connectionId: string): Promise<void> {
    this.toolSessions.delete(connectionId);
    const listener = await this.listener?.catch(() => undefined);
    await listener?.endSessions(connectionId);
  }

  private listen(): Promise<McpHttpListener> {
    this.listener ??= (async () => {
      const options = {
        version: this.ctx.version,
        board: proposalBoard(this.ctx),
        exposed: (id: string) => this.exposed(id),
      };
      const saved = (await this.store.port()) ?? 0;
      // The port used before may be taken now; another one is better than no endpoint.
      const listener = await startMcpHttp({ ...options, port: saved }).catch(() =>
        startMcpHttp({ ...options, port: 0 }),
      );
      await this.store.savePort(listener.port);
      return listener;
    })();
    this.listener.catch(() => (this.listener = undefined));
    return this.listener;
  }

  private async exposed(connectionId: string): Promise<Exposed | undefined> {
    const settings = await this.store.settings(connectionId);
    if (!settings.enabled) return undefined;
    const connection = (await this.ctx.connections.list()).find((c) => c.id === connectionId);
    if (!connection) return undefined;
    let session = this.toolSessions.get(connectionId);
    if (!session) {
      session = new McpToolSession({ ctx: this.ctx, connection, ...settings });
      this.toolSessions.set(connectionId, session);
    }
    return { token: (await this.store.token(connectionId)).token, session };
  }
}

/** Coding agents over MCP's HTTP transport: exposure settings, tokens and the listener. */
const mcpSlot: ServiceSlot<McpHttpService> = {
  name: 'mcpHttp',
  create: (ctx) => new McpHttpService(ctx),
  close: (service) => service.close(),
};

export function mcpHttpService(ctx: CoreContext): McpHttpService {
  return ctx.services.get(mcpSlot);
}
