import {
  type BedrockRuntimeClient,
  type ContentBlock,
  ConverseStreamCommand,
  type ConverseStreamCommandInput,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { DocumentType } from '@smithy/types';
import { AppFailure } from '../../shared/errors';

export interface TurnResult {
  content: ContentBlock[];
  stopReason: string;
  usage: TokenUsage;
}

interface OpenBlock {
  text?: string;
  toolUse?: { toolUseId: string; name: string; json: string };
}

/**
 * One ConverseStream call: text deltas go to `onText` as they arrive; tool-use input arrives as
 * JSON fragments that are joined and parsed at contentBlockStop. Blank text blocks are dropped,
 * since Bedrock rejects them when the history is sent back.
 */
export async function streamTurn(
  client: BedrockRuntimeClient,
  input: ConverseStreamCommandInput,
  signal: AbortSignal,
  onText: (delta: string) => void,
): Promise<TurnResult> {
  const response = await client.send(new ConverseStreamCommand(input), { abortSignal: signal });
  if (!response.stream)
    throw new AppFailure('ModelStreamInterrupted', 'Bedrock answered without a stream.', true);
  const blocks = new Map<number, OpenBlock>();
  const done: { index: number; block: ContentBlock }[] = [];
  let stopReason = 'end_turn';
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  try {
    for await (const event of response.stream) {
      if (event.contentBlockStart?.start?.toolUse) {
        const { toolUseId = '', name = '' } = event.contentBlockStart.start.toolUse;
        blocks.set(event.contentBlockStart.contentBlockIndex ?? 0, {
          toolUse: { toolUseId, name, json: '' },
        });
      } else if (event.contentBlockDelta) {
        const index = event.contentBlockDelta.contentBlockIndex ?? 0;
        const delta = event.contentBlockDelta.delta;
        const block = blocks.get(index) ?? {};
        if (delta?.text !== undefined) {
          block.text = (block.text ?? '') + delta.text;
          onText(delta.text);
        } else if (delta?.toolUse?.input !== undefined && block.toolUse) {
          block.toolUse.json += delta.toolUse.input;
        }
        blocks.set(index, block);
      } else if (event.contentBlockStop) {
        const index = event.contentBlockStop.contentBlockIndex ?? 0;
        const block = blocks.get(index);
        blocks.delete(index);
        if (block?.toolUse) {
          const { toolUseId, name, json } = block.toolUse;
          done.push({
            index,
            block: { toolUse: { toolUseId, name, input: parseToolInput(json) as DocumentType } },
          });
        } else if (block?.text && block.text.trim() !== '') {
          done.push({ index, block: { text: block.text } });
        }
      } else if (event.messageStop) {
        stopReason = event.messageStop.stopReason ?? stopReason;
      } else if (event.metadata?.usage) {
        usage = event.metadata.usage;
      }
    }
  } catch (error) {
    if (signal.aborted) throw error;
    if (
      error instanceof Error &&
      /ThrottlingException|ValidationException|ModelStreamError|ServiceUnavailable/.test(error.name)
    )
      throw error;
    throw new AppFailure(
      'ModelStreamInterrupted',
      'The connection to Bedrock broke in the middle of the answer. Nothing was changed; ask again to retry.',
      true,
      { awsMessage: error instanceof Error ? error.message : String(error) },
    );
  }
  // A text block the model never closed still counts as said.
  for (const [index, block] of blocks) {
    if (block.text && block.text.trim() !== '') done.push({ index, block: { text: block.text } });
  }
  done.sort((a, b) => a.index - b.index);
  return { content: done.map((d) => d.block), stopReason, usage };
}

function parseToolInput(json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { __invalidJson: json };
  }
}
