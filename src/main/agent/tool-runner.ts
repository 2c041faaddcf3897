import type { AgentEvent, AgentStep } from '../../shared/ipc/agent-events';
import type { AgentSettings } from '../../shared/ipc/agent';
import type { Connection } from '../../shared/ipc/connection';
import type { TableSummary } from '../../shared/ipc/tables';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { CoreContext } from '../core/context';
import { toAppError } from '../core/to-app-error';
import type { Approvals } from './approvals';
import type { AuditLog } from './audit-log';
import type { Budget } from './budget';
import { readTools, type ToolName } from './tool-specs';

export interface ToolResult {
  status: 'success' | 'error';
  json: Record<string, unknown>;
}

export interface ToolSession {
  ctx: CoreContext;
  /** Whose writes these are: the in-app assistant or an MCP client (History, the views). */
  source: 'agent' | 'mcp';
  /** An MCP client's name and version as it introduced itself (initialize's clientInfo). */
  clientName?: string;
  connection: Connection;
  settings: AgentSettings;
  budget: Budget;
  approvals: Approvals;
  audit: AuditLog;
  conversationId: string;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Tables described so far in this conversation (key schema, sizes for estimates). */
  tables: Map<string, TableSummary>;
  /**
   * The connection and agent settings as saved now. `connection` and `settings` are what held
   * when the question was asked; an approval card can wait while the user changes either.
   */
  current(): Promise<{ connection: Connection; settings: AgentSettings }>;
}

export interface ToolOutcome {
  result: ToolResult;
  step: Partial<AgentStep>;
  /** Main refused the call itself (a rule the user set), rather than the call failing. */
  refused?: boolean;
}

export type ToolExecutor = (
  input: Record<string, unknown>,
  session: ToolSession,
  stepId: string,
) => Promise<ToolOutcome>;

/** The write tool is offered only where writing is allowed at all; main refuses it anyway otherwise. */
export function allowedTools(connection: Connection, settings: AgentSettings, hasSql: boolean): ToolName[] {
  const tools = readTools.filter((t) => t !== 'run_sql' || hasSql);
  const canWrite = !connection.readOnly && settings.mode !== 'read-only';
  return canWrite ? [...tools, 'propose_changes'] : [...tools];
}

/** Runs one tool call with every check main enforces, and reports it as a step. */
export async function runToolCall(
  name: string,
  input: Record<string, unknown>,
  toolUseId: string,
  session: ToolSession,
  executors: Partial<Record<ToolName, ToolExecutor>>,
  allowed: readonly ToolName[],
): Promise<ToolResult> {
  const step: AgentStep = { id: toolUseId, tool: name, input, status: 'running' };
  const log = { connectionId: session.connection.id, conversationId: session.conversationId };
  const refuse = async (summary: string): Promise<ToolResult> => {
    session.emit({ kind: 'step', step: { ...step, status: 'refused', summary } });
    await session.audit.record(log, { type: 'tool-call', tool: name, input, outcome: 'refused', summary });
    return { status: 'error', json: { error: summary } };
  };
  if (!(allowed as readonly string[]).includes(name) || !executors[name as ToolName]) {
    return refuse(`The tool ${name} is not available on this connection.`);
  }
  const table = typeof input.table === 'string' ? input.table : undefined;
  if (table && session.settings.allowedTables.length > 0 && !session.settings.allowedTables.includes(table)) {
    return refuse(
      `The agent may not read or change the table ${table} on this connection (see the agent settings).`,
    );
  }
  if ('__invalidJson' in input) return refuse('The tool input was not valid JSON.');
  session.budget.usage.toolCalls += 1;
  session.emit({ kind: 'step', step });
  try {
    const executor = executors[name as ToolName] as ToolExecutor;
    const outcome = await executor(input, session, toolUseId);
    const status = outcome.refused ? 'refused' : outcome.result.status === 'success' ? 'done' : 'error';
    const finished: AgentStep = { ...step, ...outcome.step, status };
    session.emit({ kind: 'step', step: finished });
    await session.audit.record(log, {
      type: 'tool-call',
      tool: name,
      input,
      outcome: status,
      summary: finished.summary ?? '',
    });
    return outcome.result;
  } catch (error) {
    if (session.signal.aborted) throw error;
    const appError = toAppError(error);
    session.emit({ kind: 'step', step: { ...step, status: 'error', summary: appError.message } });
    await session.audit.record(log, {
      type: 'tool-call',
      tool: name,
      input,
      outcome: 'error',
      summary: appError.message,
    });
    return { status: 'error', json: { error: appError.message, code: appError.code } };
  }
}

export function requireTable(session: ToolSession, table: unknown): TableSummary {
  if (typeof table !== 'string')
    throw new AppFailure(ErrorCodes.invalidInput, 'The tool call names no table.');
  const summary = session.tables.get(table);
  if (!summary)
    throw new AppFailure(
      ErrorCodes.notFound,
      `Describe the table ${table} first (or check its name with list_tables).`,
    );
  return summary;
}
