import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../shared/ipc/agent-events';
import type { AgentSettings } from '../../shared/ipc/agent';
import { defaultAgentSettings } from '../../shared/ipc/agent';
import type { Connection } from '../../shared/ipc/connection';
import type { TableSummary } from '../../shared/ipc/tables';
import { Approvals } from '../agent/approvals';
import { AuditLog } from '../agent/audit-log';
import { Budget } from '../agent/budget';
import { readExecutors } from '../agent/read-executors';
import { schemaExecutors } from '../agent/schema-executor';
import { sqlExecutors } from '../agent/sql-executor';
import { allowedTools, type ToolExecutor, type ToolSession } from '../agent/tool-runner';
import type { ToolName } from '../agent/tool-specs';
import { writeExecutors } from '../agent/write-executors';
import type { CoreContext } from '../core/context';
import { tableDetails } from '../dynamo/table-metadata';
import { explainTool, refusedScan, scanlessSql } from './explain';

export interface McpLimits {
  /** Items one tool call may read, over all its requests. */
  maxItems: number;
  /** Read capacity one tool call may consume, as DynamoDB reports it. */
  maxRcu: number;
}

export interface McpSessionOptions extends McpLimits {
  ctx: CoreContext;
  connection: Connection;
  /** Tables the client may touch; empty means every table of the connection. */
  tables: string[];
  /** Offer propose_changes (still refused on a read-only connection, and each write confirmed). */
  allowWrites: boolean;
  /** Let reads Scan (the scan tool, a SELECT without a key condition); refused otherwise. */
  allowScans: boolean;
  /** How long a write proposed for approval in the app waits before it is rejected. */
  approvalTimeoutMs?: number;
}

/**
 * The agent's tools as an MCP client sees them: the same executors, allow-list, approvals and
 * audit log as the in-app assistant, with a budget per tool call instead of per question (a
 * coding agent's session has no "question"), and the approval card replaced by elicitation.
 */
export class McpToolSession {
  readonly approvals = new Approvals();
  readonly audit: AuditLog;
  readonly settings: AgentSettings;
  readonly executors: Partial<Record<ToolName, ToolExecutor>>;
  readonly allowed: readonly ToolName[];
  /** The audit log's conversation id: one per server process. */
  readonly conversationId = `mcp_${randomUUID()}`;
  /** Tables described so far, shared by every call (writes and key reads need the key schema). */
  readonly tables = new Map<string, TableSummary>();

  constructor(readonly options: McpSessionOptions) {
    this.audit = new AuditLog(options.ctx.dataDir);
    this.settings = {
      ...defaultAgentSettings,
      mode: options.allowWrites ? 'auto-read' : 'read-only',
      allowedTables: options.tables,
      budgets: {
        ...defaultAgentSettings.budgets,
        itemsRead: options.maxItems,
        readCapacity: options.maxRcu,
      },
    };
    this.executors = {
      ...readExecutors,
      ...schemaExecutors,
      ...sqlExecutors,
      ...writeExecutors,
      explain: explainTool(options.allowScans),
    };
    if (!options.allowScans) {
      this.executors.scan = refusedScan;
      if (sqlExecutors.run_sql) this.executors.run_sql = scanlessSql(sqlExecutors.run_sql);
    }
    const tools = allowedTools(options.connection, this.settings, 'run_sql' in sqlExecutors);
    // explain goes with the reads, before propose_changes; a read-only mode keeps every read tool.
    const at = tools.includes('propose_changes') ? tools.length - 1 : tools.length;
    this.allowed = [...tools.slice(0, at), 'explain', ...tools.slice(at)];
  }

  /**
   * The agent's executors need a table's key schema before a key read or a write; in the app the
   * model learns it with describe_table first. A coding agent often knows its table already, so
   * the server fetches the metadata (DescribeTable, no read capacity) of allowed tables itself.
   */
  async learnTables(names: string[], signal: AbortSignal): Promise<void> {
    const unknown = names.filter((n) => this.isTableAllowed(n) && !this.tables.has(n));
    if (unknown.length === 0) return;
    const client = await this.options.ctx.clients.dynamo(this.options.connection.id);
    for (const name of unknown) {
      const { summary } = await tableDetails(client, name, signal);
      this.tables.set(summary.name, summary);
    }
  }

  /** A fresh per-call budget and the session a call runs in. */
  forCall(
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
    clientName?: string,
    /** A tool's own cap (an access pattern's), when it is below the connection's budgets. */
    caps: McpLimits = this.options,
  ): ToolSession {
    return {
      ctx: this.options.ctx,
      source: 'mcp',
      ...(clientName ? { clientName } : {}),
      connection: this.options.connection,
      settings: this.settings,
      budget: new Budget(
        {
          modelCalls: 1,
          toolCalls: Number.MAX_SAFE_INTEGER,
          tokens: Number.MAX_SAFE_INTEGER,
          itemsRead: caps.maxItems,
          readCapacity: caps.maxRcu,
        },
        'this tool call',
      ),
      approvals: this.approvals,
      audit: this.audit,
      conversationId: this.conversationId,
      signal,
      emit,
      tables: this.tables,
      current: () => this.current(),
    };
  }

  /**
   * The flags fix the agent settings, but a saved connection can be edited in the app while a
   * write waits for confirmation; --read-only holds whatever the saved flag says.
   */
  private async current(): Promise<{ connection: Connection; settings: AgentSettings }> {
    const fixed = this.options.connection;
    const saved = (await this.options.ctx.connections.list()).find((c) => c.id === fixed.id);
    const connection = saved ? { ...saved, readOnly: saved.readOnly || fixed.readOnly } : fixed;
    return { connection, settings: this.settings };
  }

  isTableAllowed(table: string): boolean {
    return this.options.tables.length === 0 || this.options.tables.includes(table);
  }
}
