import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Approvals } from '../agent/approvals';

interface WriteApproval {
  id: string;
  kind: 'read' | 'write';
  summary: string;
  requests: Record<string, unknown>[];
}

/** One request in words: "UpdateItem on Orders, key {"PK":"USER#1"}". */
function inWords(request: Record<string, unknown>, index: number): string {
  const key = request.Key ?? request.Item;
  return `${index + 1}. ${String(request.operation)} on ${String(request.TableName)}${key ? `, key ${JSON.stringify(key)}` : ''}`;
}

/**
 * The approval card of an MCP session: the client asks the user (MCP elicitation) with the exact
 * requests in words and as JSON. Only an explicit "accept" with the box ticked approves; a
 * decline, a cancel, a client error or a cancelled call all reject, so nothing is written.
 */
export async function confirmWrites(
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  server: Server,
  approvals: Approvals,
  approval: WriteApproval,
  signal: AbortSignal,
): Promise<void> {
  const message = [
    `DynoTable asks before writing. ${approval.summary}.`,
    'Each write succeeds only while the item is still exactly as it was read; a change made since is skipped and reported.',
    '',
    ...approval.requests.map(inWords),
    '',
    JSON.stringify(approval.requests, null, 2),
  ].join('\n');
  let approved = false;
  try {
    const answer = await server.elicitInput(
      {
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: {
              type: 'boolean',
              title: `Write ${approval.requests.length === 1 ? 'this item' : `these ${approval.requests.length} items`}`,
              description: 'Tick to send exactly the requests above to DynamoDB.',
            },
          },
          required: ['confirm'],
        },
      },
      { signal },
    );
    approved = answer.action === 'accept' && answer.content?.confirm === true;
  } catch {
    approved = false;
  }
  approvals.decide(approval.id, approved);
}
