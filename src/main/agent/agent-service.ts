import { randomUUID } from 'node:crypto';
import type { Message } from '@aws-sdk/client-bedrock-runtime';
import type { TableSummary } from '../../shared/ipc/tables';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { CoreContext, ServiceSlot } from '../core/context';
import { answerQuestion } from './agent-loop';
import { Approvals } from './approvals';
import { AuditLog } from './audit-log';
import { createBedrockClient } from './bedrock-client';
import { readExecutors } from './read-executors';
import { schemaExecutors } from './schema-executor';
import { AgentSettingsStore } from './settings-store';
import { allowedTools, type ToolExecutor } from './tool-runner';
import type { ToolName } from './tool-specs';
import { writeExecutors } from './write-executors';
import { sqlExecutors } from './sql-executor';

interface Conversation {
  connectionId: string;
  history: Message[];
  tables: Map<string, TableSummary>;
  busy: boolean;
}

/** One per core: settings, conversations, pending approvals and the audit log. */
export class AgentService {
  readonly settings: AgentSettingsStore;
  readonly approvals = new Approvals();
  readonly audit: AuditLog;
  private readonly conversations = new Map<string, Conversation>();

  constructor(private readonly ctx: CoreContext) {
    this.settings = new AgentSettingsStore(ctx.dataDir);
    this.audit = new AuditLog(ctx.dataDir);
  }

  async ask(input: {
    connectionId: string;
    requestId: string;
    question: string;
    conversationId?: string;
  }): Promise<string> {
    const connection = await this.ctx.connections.get(input.connectionId);
    const settings = await this.settings.get(connection.id);
    const conversationId = input.conversationId ?? `conv_${randomUUID()}`;
    let conversation = this.conversations.get(conversationId);
    if (!conversation) {
      conversation = { connectionId: connection.id, history: [], tables: new Map(), busy: false };
      this.conversations.set(conversationId, conversation);
    }
    if (conversation.connectionId !== connection.id) {
      throw new AppFailure(ErrorCodes.invalidInput, 'That conversation belongs to another connection.');
    }
    if (conversation.busy)
      throw new AppFailure(ErrorCodes.invalidInput, 'The agent is still answering the previous question.');
    const executors: Partial<Record<ToolName, ToolExecutor>> = {
      ...readExecutors,
      ...schemaExecutors,
      ...sqlExecutors,
      ...writeExecutors,
    };
    const allowed = allowedTools(connection, settings, 'run_sql' in sqlExecutors);
    const client = await createBedrockClient(this.ctx, connection.id, settings);
    const active = conversation;
    active.busy = true;
    this.ctx.operations.start(input.requestId, async (run) => {
      try {
        return await answerQuestion(
          {
            client,
            history: active.history,
            question: input.question,
            allowed,
            executors,
            session: {
              ctx: this.ctx,
              source: 'agent',
              connection,
              settings,
              approvals: this.approvals,
              audit: this.audit,
              conversationId,
              tables: active.tables,
              current: async () => ({
                connection: await this.ctx.connections.get(connection.id),
                settings: await this.settings.get(connection.id),
              }),
            },
          },
          run,
        );
      } finally {
        active.busy = false;
        client.destroy();
      }
    });
    return conversationId;
  }
}

/** The assistant: settings, conversations, pending approvals and the audit log. */
const agentSlot: ServiceSlot<AgentService> = { name: 'agent', create: (ctx) => new AgentService(ctx) };

/** The core's agent service (ctx.services owns it). */
export function agentService(ctx: CoreContext): AgentService {
  return ctx.services.get(agentSlot);
}
