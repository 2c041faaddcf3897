import { type BedrockRuntimeClient, ConverseCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { SqlAssistInput, SqlAssistResult } from '../../../shared/ipc/sql-assist';
import type { SqlPlan } from '../../../shared/sql/plan';
import type { CoreContext } from '../../core/context';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { toAppError } from '../../core/to-app-error';
import { loadViews } from '../../sql/files/view-store';
import { sqlServiceFor } from '../../sql/service-registry';
import { agentService } from '../agent-service';
import { createBedrockClient } from '../bedrock-client';
import { explainBedrockError } from '../bedrock-errors';
import { assistContext, EXPLAIN_PROMPT, SYSTEM_PROMPT } from './context';
import { tokenCostUsd } from './prices';

const MAX_TOKENS = 1_500;

/** The statement in the model's answer: its ```sql block, or the whole answer if it is one statement. */
export function statementIn(text: string): string | undefined {
  const fenced = /```(?:sql)?\s*\n([\s\S]*?)```/i.exec(text);
  const candidate = (fenced ? fenced[1] : text)?.trim().replace(/;\s*$/, '');
  if (!candidate || !/^(select|with)\b/i.test(candidate)) return undefined;
  return candidate;
}

/** The answer's words without its code block, for the line shown beside the proposal. */
function wordsOf(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '').trim();
}

interface Conversation {
  client: BedrockRuntimeClient;
  modelId: string;
  system: string;
  messages: Message[];
  usage: { inputTokens: number; outputTokens: number };
  signal: AbortSignal;
}

async function turn(c: Conversation, text: string): Promise<string> {
  c.messages.push({ role: 'user', content: [{ text }] });
  const output = await c.client.send(
    new ConverseCommand({
      modelId: c.modelId,
      system: [{ text: c.system }],
      messages: c.messages,
      inferenceConfig: { maxTokens: MAX_TOKENS, temperature: 0 },
    }),
    { abortSignal: c.signal },
  );
  const answer = (output.output?.message?.content ?? [])
    .map((block) => block.text ?? '')
    .join('')
    .trim();
  c.messages.push({ role: 'assistant', content: [{ text: answer }] });
  c.usage.inputTokens += output.usage?.inputTokens ?? 0;
  c.usage.outputTokens += output.usage?.outputTokens ?? 0;
  return answer;
}

function firstPrompt(input: SqlAssistInput, context: string, plan: SqlPlan | undefined, planError?: string) {
  const statement = input.statement?.trim() ?? '';
  if (input.task === 'ask') {
    const current = statement && !/^(--[^\n]*\n)*\s*select\s*\*\s*from\s*$/i.test(statement);
    return `${context}\n\nQuestion: ${input.question ?? ''}${current ? `\n\nThe editor holds this statement, which may help:\n\`\`\`sql\n${statement}\n\`\`\`` : ''}`;
  }
  if (input.task === 'fix')
    return `${context}\n\nThis statement failed:\n\`\`\`sql\n${statement}\n\`\`\`\nError: ${input.error ?? 'unknown'}\n\nAnswer with the corrected statement.`;
  return `${context}\n\nStatement:\n\`\`\`sql\n${statement}\n\`\`\`\n\n${plan ? `Its plan (JSON):\n${JSON.stringify(plan)}` : `It does not plan: ${planError ?? 'unknown error'}`}`;
}

/**
 * Ask, Fix or Explain, as one operation: ground the model in the catalog, ask it, plan what it
 * proposes, and send it back once when that does not plan (an invented table or attribute). The
 * proposal is returned, never run.
 */
export async function runSqlAssist(
  ctx: CoreContext,
  input: SqlAssistInput,
  run: OperationRun,
): Promise<OperationOutcome<'sql:assist'>> {
  const { connectionId } = input;
  if (input.task === 'ask' && !input.question?.trim())
    throw new AppFailure(ErrorCodes.invalidInput, 'Type a question first: what do you want to know?');
  if (input.task !== 'ask' && !input.statement?.trim())
    throw new AppFailure(ErrorCodes.invalidInput, 'There is no statement in the editor to work on.');
  const settings = await agentService(ctx).settings.get(connectionId);
  const progress = (message: string) => ({ items: 0, pages: 0, consumedCapacity: 0, message });
  run.emit({ type: 'progress', progress: progress('Reading the catalog…') });
  // Read once: the catalog sent to the model and the planner that checks its answer share them.
  const views = await loadViews(ctx.dataDir, connectionId);
  const context = await assistContext(ctx, connectionId, input.includeSamples, run.signal, views);
  const service = sqlServiceFor(ctx);
  const planOf = async (statement: string): Promise<SqlPlan> => service.plan(connectionId, statement, views);

  let explainedPlan: SqlPlan | undefined;
  let explainedError: string | undefined;
  if (input.task === 'explain') {
    try {
      explainedPlan = await planOf(input.statement ?? '');
    } catch (error) {
      explainedError = toAppError(error).message;
    }
  }
  const client = await createBedrockClient(ctx, connectionId, settings);
  const conversation: Conversation = {
    client,
    modelId: settings.modelId,
    system: input.task === 'explain' ? EXPLAIN_PROMPT : SYSTEM_PROMPT,
    messages: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    signal: run.signal,
  };
  try {
    run.emit({ type: 'progress', progress: progress(`Asking ${settings.modelId}…`) });
    const answer = await turn(conversation, firstPrompt(input, context, explainedPlan, explainedError));
    const result: SqlAssistResult = {
      task: input.task,
      explanation: input.task === 'explain' ? answer : wordsOf(answer),
      plan: explainedPlan,
      sent: [],
      modelId: settings.modelId,
      usage: conversation.usage,
    };
    if (input.task !== 'explain') {
      let statement = statementIn(answer);
      if (!statement) {
        result.planError = 'The model answered without a SELECT statement.';
      } else {
        try {
          result.plan = await planOf(statement);
        } catch (error) {
          // Invented names are the usual failure: the parser's sentence names them, so send it back once.
          result.retried = toAppError(error).message;
          run.emit({
            type: 'progress',
            progress: progress('The statement does not plan; asking for a fix…'),
          });
          const again = await turn(
            conversation,
            `That statement does not run here: ${result.retried}\nUse only the names listed in the context. Answer with the corrected statement.`,
          );
          result.explanation = wordsOf(again);
          statement = statementIn(again);
          if (!statement) result.planError = 'The model answered without a SELECT statement.';
          else
            try {
              result.plan = await planOf(statement);
            } catch (retryError) {
              result.planError = toAppError(retryError).message;
            }
        }
      }
      result.statement = statement;
    }
    result.sent = [
      { role: 'system', text: conversation.system },
      ...conversation.messages.map((m) => ({
        role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const),
        text: (m.content ?? []).map((b) => b.text ?? '').join(''),
      })),
    ];
    result.costUsd = tokenCostUsd(settings.modelId, conversation.usage);
    return { progress: progress('Done'), value: result };
  } catch (error) {
    throw explainBedrockError(error, settings);
  } finally {
    client.destroy();
  }
}
