import { AgentService } from '../agent/agent-service';
import { McpHttpService } from '../mcp/http-service';
import { MigrationStore } from '../migration/store';
import { SchemaStore } from '../schema/schema-store';
import { OpenedExports } from '../exports/opened-exports';
import { SqlService } from '../sql/service';
import type { SchemaReport } from '../../shared/ipc/schema';
import type { CoreContext } from './context';
import { RunningJobs } from './running-jobs';

/**
 * The core's long-lived services, made on first use from the one context and closed by the one
 * shutdown (shutdownCore) that the desktop app, browser mode, the MCP server and the CLI share.
 * Before, each lived in a private map keyed by the context object, so a copy of the context
 * (`{ ...core, clients }`) quietly got a second SQL worker that no shutdown closed.
 */
export class CoreServices {
  private sqlService?: SqlService;
  private agentService?: AgentService;
  private migrationStore?: MigrationStore;
  private mcpService?: McpHttpService;
  private schemaStore?: SchemaStore;
  private runningJobs?: RunningJobs;
  private opened?: OpenedExports;
  private readonly samples = new Map<string, { at: number; report: SchemaReport }>();
  private isClosed = false;

  constructor(private readonly ctx: () => CoreContext) {}

  /** The SQL workbench's service (one worker thread, unref'd while idle). */
  sql(): SqlService {
    this.assertOpen();
    this.sqlService ??= new SqlService({
      clients: this.ctx().clients,
      exports: () => this.openedExports().locations(),
    });
    return this.sqlService;
  }

  /** The SQL service if one was started: writes tell it to forget what it cached. */
  runningSql(): SqlService | undefined {
    return this.sqlService;
  }

  /** The assistant: settings, conversations, pending approvals and the audit log. */
  agent(): AgentService {
    this.assertOpen();
    return (this.agentService ??= new AgentService(this.ctx()));
  }

  /** The migration pre-flight's scans, plans and acknowledgements on disk. */
  migration(): MigrationStore {
    return (this.migrationStore ??= new MigrationStore(this.ctx().dataDir));
  }

  /** Coding agents over MCP's HTTP transport: exposure settings, tokens and the listener. */
  mcp(): McpHttpService {
    this.assertOpen();
    return (this.mcpService ??= new McpHttpService(this.ctx()));
  }

  /** The Schema view's reads on disk: summaries, reports, a stopped full read's checkpoint. */
  schema(): SchemaStore {
    return (this.schemaStore ??= new SchemaStore(this.ctx().dataDir));
  }

  /** The one list of resumable jobs (pre-flight and schema scans, copies, fix runs) running now. */
  jobs(): RunningJobs {
    return (this.runningJobs ??= new RunningJobs(this.ctx().operations));
  }

  /** Exports opened in this core, newest first: the Exports view's list and SQL's `export."…"`. */
  openedExports(): OpenedExports {
    return (this.opened ??= new OpenedExports());
  }

  /** Tables sampled for Ask when no saved read exists, by [connectionId, table], with when. */
  schemaSamples(): Map<string, { at: number; report: SchemaReport }> {
    return this.samples;
  }

  /**
   * Stops what holds threads or waits: the SQL worker. The agent's runs and approval waits end
   * with their operations (cancelAll comes first in shutdownCore). Later calls are refused, so
   * nothing starts a new worker on a core being shut down.
   */
  async close(): Promise<void> {
    this.isClosed = true;
    const sql = this.sqlService;
    this.sqlService = undefined;
    await sql?.close();
    await this.mcpService?.close();
  }

  private assertOpen(): void {
    if (this.isClosed) throw new Error('DynoTable is shutting down; the request was not started.');
  }
}
