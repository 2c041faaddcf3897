import type {
  BedrockRuntimeClient,
  ContentBlock,
  Message,
  ToolResultBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { explainBedrockError } from './bedrock-errors';
import { Budget } from './budget';
import { streamTurn } from './stream-turn';
import { systemPrompt } from './system-prompt';
import { runToolCall, type ToolExecutor, type ToolSession } from './tool-runner';
import { toolConfigFor, type ToolName } from './tool-specs';

export interface AgentQuestion {
  client: BedrockRuntimeClient;
  /** The conversation so far; extended in place so a follow-up question continues it. */
  history: Message[];
  question: string;
  allowed: readonly ToolName[];
  executors: Partial<Record<ToolName, ToolExecutor>>;
  session: Omit<ToolSession, 'signal' | 'emit' | 'budget'>;
}

const INTERRUPTED = '(This answer was interrupted before it finished.)';

/**
 * The loop: ask the model, run the tools it calls (with main's checks), send all results back
 * in ONE user message, repeat until it answers or a budget is reached. Whatever happens, the
 * history stays valid for Bedrock: no blank text, no toolUse without its toolResult, roles alternate.
 */
export async function answerQuestion(
  q: AgentQuestion,
  run: OperationRun,
): Promise<OperationOutcome<'agent:ask'>> {
  const budget = new Budget(q.session.settings.budgets);
  const emit: ToolSession['emit'] = (event) => run.emit({ type: 'agent', event });
  const session: ToolSession = { ...q.session, budget, signal: run.signal, emit };
  const log = { connectionId: q.session.connection.id, conversationId: q.session.conversationId };
  const system = [
    {
      text: systemPrompt({
        canPropose: q.allowed.includes('propose_changes'),
        canSql: q.allowed.includes('run_sql'),
        connectionLabel: q.session.connection.label,
      }),
    },
  ];
  const toolConfig = toolConfigFor(q.allowed);
  const reportUsage = () => emit({ kind: 'usage', usage: { ...budget.usage }, budgets: budget.limits });
  const progress = () => ({
    items: budget.usage.itemsRead,
    pages: budget.usage.modelCalls,
    consumedCapacity: budget.usage.readCapacity,
  });
  await q.session.audit.record(log, { type: 'question', question: q.question });
  q.history.push({ role: 'user', content: [{ text: q.question }] });
  let budgetNotices = 0;
  try {
    for (;;) {
      if (budget.usage.modelCalls >= budget.limits.modelCalls) {
        const message = `Stopped: the budget of ${budget.limits.modelCalls} model calls for this question was reached.`;
        emit({ kind: 'notice', message });
        q.history.push({ role: 'assistant', content: [{ text: message }] });
        return { progress: progress(), value: { stopReason: 'budget' } };
      }
      budget.usage.modelCalls += 1;
      const turn = await streamTurn(
        q.client,
        {
          modelId: q.session.settings.modelId,
          system,
          messages: q.history,
          toolConfig,
          inferenceConfig: { maxTokens: 4096 },
        },
        run.signal,
        (delta) => emit({ kind: 'text', delta }),
      );
      budget.usage.inputTokens += turn.usage.inputTokens ?? 0;
      budget.usage.outputTokens += turn.usage.outputTokens ?? 0;
      reportUsage();
      const content: ContentBlock[] = turn.content.length > 0 ? turn.content : [{ text: '(no answer)' }];
      q.history.push({ role: 'assistant', content });
      const toolUses = content.flatMap((block) => (block.toolUse ? [block.toolUse] : []));
      if (toolUses.length === 0) {
        await q.session.audit.record(log, { type: 'answer', stopReason: turn.stopReason });
        return { progress: progress(), value: { stopReason: turn.stopReason } };
      }
      const results: (ContentBlock & { toolResult: ToolResultBlock })[] = [];
      for (const use of toolUses) {
        const id = use.toolUseId ?? '';
        const limit = budget.reached();
        let result: { status: 'success' | 'error'; json: Record<string, unknown> };
        if (run.signal.aborted) result = { status: 'error', json: { error: 'Cancelled by the user.' } };
        else if (limit)
          result = {
            status: 'error',
            json: { error: `Not run: the budget of ${limit} for this question is reached.` },
          };
        else {
          result = await runToolCall(
            use.name ?? '',
            (use.input ?? {}) as Record<string, unknown>,
            id,
            session,
            q.executors,
            q.allowed,
          );
          // The meter shows what DynamoDB reported as each read ends, and stays right if we stop here.
          reportUsage();
        }
        const block: ToolResultBlock = {
          toolUseId: id,
          status: result.status,
          content: [{ json: result.json as never }],
        };
        results.push({ toolResult: block });
      }
      const reached = budget.reached();
      if (reached) {
        // Told once; if the model calls tools anyway it gets one more chance to answer, then we stop.
        if (budgetNotices === 0)
          emit({
            kind: 'notice',
            message: `Budget reached (${reached}); the agent is answering with what it has.`,
          });
        budgetNotices += 1;
        if (budgetNotices > 2) {
          q.history.push({ role: 'user', content: results });
          q.history.push({
            role: 'assistant',
            content: [{ text: `Stopped: the budget of ${reached} was reached.` }],
          });
          emit({ kind: 'notice', message: `Stopped: the budget of ${reached} was reached.` });
          return { progress: progress(), value: { stopReason: 'budget' } };
        }
        // Bedrock refuses text next to tool results in one message ("Conversation blocks and tool
        // result blocks cannot be provided in the same turn"), so the notice rides in each result.
        const notice = `The budget of ${reached} for this question is reached. Answer now with what you have; do not call tools.`;
        for (const block of results) block.toolResult.content?.push({ text: notice });
      }
      q.history.push({ role: 'user', content: results });
      if (run.signal.aborted) throw new Error('cancelled');
    }
  } catch (error) {
    repairHistory(q.history);
    throw explainBedrockError(error, q.session.settings);
  }
}

/** After a cancel or failure: answer any dangling toolUse and end on an assistant turn. */
function repairHistory(history: Message[]): void {
  const last = history.at(-1);
  if (last?.role === 'assistant') {
    const pending = (last.content ?? []).flatMap((b) => (b.toolUse?.toolUseId ? [b.toolUse.toolUseId] : []));
    if (pending.length > 0) {
      history.push({
        role: 'user',
        content: pending.map((toolUseId) => ({
          toolResult: { toolUseId, status: 'error' as const, content: [{ text: 'Cancelled by the user.' }] },
        })),
      });
      history.push({ role: 'assistant', content: [{ text: INTERRUPTED }] });
    }
    return;
  }
  if (last?.role === 'user') history.push({ role: 'assistant', content: [{ text: INTERRUPTED }] });
}
