import type { AgentApproval } from '../../shared/ipc/agent-events';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovedWrites, Approvals } from '../agent/approvals';
import { PROPOSAL_TIMEOUT_MS, type ProposalDesk } from './proposals';

type WriteApproval = AgentApproval;

/** One request in words: "UpdateItem on Orders, key {"PK":"USER#1"}". */
function inWords(request: Record<string, unknown>, index: number): string {
  const key = request.Key ?? request.Item;
  return `${index + 1}. ${String(request.operation)} on ${String(request.TableName)}${key ? `, key ${JSON.stringify(key)}` : ''}`;
}

/** Where the app shows a proposal: its desk, under the connection and the client's name. */
export interface InAppApproval {
  desk: ProposalDesk;
  connectionId: string;
  connectionLabel: string;
  client: string;
  timeoutMs?: number;
}

type Answer = 'approved' | 'rejected' | 'no-answer';

interface Decided {
  answer: Answer;
  why?: string;
  /** What the app wrote, when the app itself wrote the approved requests (a stdio proposal). */
  written?: ApprovedWrites;
}

/** A promise that never settles: an answer that does not count leaves the race to the others. */
const never = (): Promise<never> => new Promise<never>(() => undefined);

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
 * The approval of an MCP write: shown in the app (on the app's own board for the HTTP transport,
 * through the proposals folder for `dynotable mcp`) and, when the client supports elicitation,
 * asked in the client too. The first answer decides and the other is withdrawn; no answer, a
 * failed client and a cancelled call all reject, so nothing is written. A rejection carries the
 * sentence the agent is given.
 */
export async function confirmWrites(
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  server: Server,
  approvals: Approvals,
  approval: WriteApproval,
  signal: AbortSignal,
  inAppAsked?: InAppApproval,
): Promise<void> {
  const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
  const stopAsking = new AbortController();
  const onAbort = (): void => stopAsking.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const proposed = approvals.proposedOf(approval.id);
  // No app running (stdio): the client's elicitation alone decides.
  const inApp = inAppAsked && proposed && (await inAppAsked.desk.isOpen()) ? inAppAsked : undefined;
  const timeoutMs = inApp?.timeoutMs ?? PROPOSAL_TIMEOUT_MS;
  const asks: Promise<Decided>[] = [];
  if (canElicit) {
    asks.push(
      askClient(server, approval, stopAsking.signal).then(async (answer): Promise<Decided> => {
        if (!inApp) return { answer };
        // The app's answer came first (and may be writing now): it decides, not this one.
        if (answer === 'no-answer' || !(await inApp.desk.claim(approval.id))) return never();
        return { answer };
      }),
    );
  }
  if (inApp && proposed) {
    const draft = {
      ...approval,
      kind: 'write' as const,
      connectionId: inApp.connectionId,
      connectionLabel: inApp.connectionLabel,
      client: inApp.client,
    };
    asks.push(
      inApp.desk
        .propose(draft, proposed, stopAsking.signal, timeoutMs)
        .then(({ outcome, written, error }) => {
          if (outcome === 'approved') return { answer: 'approved' as const, written };
          if (error) return { answer: 'rejected' as const, why: error };
          if (outcome === 'expired')
            return {
              answer: 'no-answer' as const,
              why: `Nobody approved these changes in DynoTable within ${minutes(timeoutMs)}, so nothing was written. Ask the user to look at "Agent proposals" in DynoTable, then propose again.`,
            };
          if (outcome === 'rejected')
            return {
              answer: 'rejected' as const,
              why: 'The user rejected these changes in DynoTable. Nothing was written.',
            };
          // Withdrawn because the client answered first, or the call went away: not an answer.
          return never();
        }),
    );
  }
  if (asks.length > 0)
    asks.push(
      new Promise<Decided>((resolve) => {
        if (signal.aborted) resolve({ answer: 'rejected' });
        signal.addEventListener('abort', () => resolve({ answer: 'rejected' }), { once: true });
      }),
    );
  const decided: Decided = asks.length > 0 ? await Promise.race(asks) : { answer: 'no-answer' };
  signal.removeEventListener('abort', onAbort);
  stopAsking.abort();
  if (decided.written) approvals.decideWritten(approval.id, decided.written);
  else approvals.decide(approval.id, decided.answer === 'approved', decided.why);
}
