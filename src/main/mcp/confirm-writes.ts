import type { AgentApproval } from '../../shared/ipc/agent-events';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Approvals } from '../agent/approvals';
import { PROPOSAL_TIMEOUT_MS, type ProposalBoard } from './proposals';

type WriteApproval = AgentApproval;

/** One request in words: "UpdateItem on Orders, key {"PK":"USER#1"}". */
function inWords(request: Record<string, unknown>, index: number): string {
  const key = request.Key ?? request.Item;
  return `${index + 1}. ${String(request.operation)} on ${String(request.TableName)}${key ? `, key ${JSON.stringify(key)}` : ''}`;
}

/** Where the app shows a proposal: its board, under the connection and the client's name. */
export interface InAppApproval {
  board: ProposalBoard;
  connectionId: string;
  connectionLabel: string;
  client: string;
  timeoutMs?: number;
}

type Answer = 'approved' | 'rejected' | 'no-answer';

/**
 * The client asks the user (MCP elicitation) with the exact requests in words and as JSON. Only
 * an explicit "accept" with the box ticked approves; a decline or cancel rejects; a client that
 * fails to ask gives no answer (the app may still be asked).
 */
async function askClient(
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  server: Server,
  approval: WriteApproval,
  signal: AbortSignal,
): Promise<Answer> {
  const message = [
    `DynoTable asks before writing. ${approval.summary}.`,
    'Each write succeeds only while the item is still exactly as it was read; a change made since is skipped and reported.',
    '',
    ...approval.requests.map(inWords),
    '',
    JSON.stringify(approval.requests, null, 2),
  ].join('\n');
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
    return answer.action === 'accept' && answer.content?.confirm === true ? 'approved' : 'rejected';
  } catch {
    return 'no-answer';
  }
}

function minutes(ms: number): string {
  const n = Math.round(ms / 60_000);
  return n >= 1 ? `${n} minute${n === 1 ? '' : 's'}` : `${Math.round(ms / 1000)} seconds`;
}

/**
 * The approval of an MCP write: shown in the app (the HTTP transport, served by the app) and, when
 * the client supports elicitation, asked in the client too. The first answer decides and the
 * other is withdrawn; no answer, a failed client and a cancelled call all reject, so nothing is
 * written. A rejection carries the sentence the agent is given.
 */
export async function confirmWrites(
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  server: Server,
  approvals: Approvals,
  approval: WriteApproval,
  signal: AbortSignal,
  inApp?: InAppApproval,
): Promise<void> {
  const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
  const stopAsking = new AbortController();
  const onAbort = (): void => stopAsking.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = inApp?.timeoutMs ?? PROPOSAL_TIMEOUT_MS;
  const asks: Promise<{ answer: Answer; why?: string }>[] = [];
  if (canElicit) {
    asks.push(
      askClient(server, approval, stopAsking.signal).then((answer) =>
        answer === 'no-answer' && inApp ? new Promise<never>(() => undefined) : { answer },
      ),
    );
  }
  if (inApp) {
    asks.push(
      inApp.board
        .propose(
          {
            ...approval,
            kind: 'write',
            connectionId: inApp.connectionId,
            connectionLabel: inApp.connectionLabel,
            client: inApp.client,
          },
          stopAsking.signal,
          timeoutMs,
        )
        .then((outcome) => {
          if (outcome === 'approved') return { answer: 'approved' as const };
          if (outcome === 'expired')
            return {
              answer: 'no-answer' as const,
              why: `Nobody approved these changes in DynoTable within ${minutes(timeoutMs)}, so nothing was written. Ask the user to look at "Agent proposals" in DynoTable, then propose again.`,
            };
          return {
            answer: 'rejected' as const,
            why:
              outcome === 'rejected'
                ? 'The user rejected these changes in DynoTable. Nothing was written.'
                : undefined,
          };
        }),
    );
  }
  const decided = asks.length > 0 ? await Promise.race(asks) : { answer: 'no-answer' as Answer };
  signal.removeEventListener('abort', onAbort);
  stopAsking.abort();
  inApp?.board.withdraw(approval.id);
  approvals.decide(approval.id, decided.answer === 'approved', decided.why);
}
