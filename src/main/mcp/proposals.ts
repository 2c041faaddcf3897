import { PROPOSALS_REQUEST_ID } from '../../shared/ipc/operations';
import type { McpProposal } from '../../shared/ipc/mcp';
import type { CoreContext, ServiceSlot } from '../core/context';

/** How a proposal ended: the user's answer in the app, or none in time, or the call went away. */
export type ProposalOutcome = 'approved' | 'rejected' | 'expired' | 'cancelled';

/** How long an agent's proposal waits for the user before it is rejected (the agent is told). */
export const PROPOSAL_TIMEOUT_MS = 10 * 60_000;

interface Waiting {
  proposal: McpProposal;
  finish(outcome: ProposalOutcome): void;
}

/**
 * Writes coding agents proposed over MCP that wait for the user in the app. Every change of the
 * list is published whole (a `proposals` event), so each window shows what waits wherever the
 * user is; the first answer wins, whether it comes from a window, the client's own elicitation,
 * the timeout or the agent cancelling its call.
 */
export class ProposalBoard {
  private readonly waiting = new Map<string, Waiting>();
  private seq = 0;

  constructor(private readonly ctx: CoreContext) {}

  list(): McpProposal[] {
    return [...this.waiting.values()].map((w) => w.proposal);
  }

  /** Shows the proposal in the app and resolves with how it ended; never rejects. */
  propose(
    proposal: Omit<McpProposal, 'at' | 'expiresAt'>,
    signal: AbortSignal,
    timeoutMs = PROPOSAL_TIMEOUT_MS,
  ): Promise<ProposalOutcome> {
    const at = new Date();
    const full: McpProposal = {
      ...proposal,
      at: at.toISOString(),
      expiresAt: new Date(at.getTime() + timeoutMs).toISOString(),
    };
    return new Promise((resolve) => {
      const finish = (outcome: ProposalOutcome): void => {
        if (!this.waiting.delete(full.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.publish();
        resolve(outcome);
      };
      const onAbort = (): void => finish('cancelled');
      const timer = setTimeout(() => finish('expired'), timeoutMs);
      timer.unref();
      this.waiting.set(full.id, { proposal: full, finish });
      if (signal.aborted) {
        finish('cancelled');
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.publish();
    });
  }

  /** The user's answer; false when the proposal no longer waits. */
  decide(id: string, approve: boolean): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    entry.finish(approve ? 'approved' : 'rejected');
    return true;
  }

  /** Ends a proposal that was answered elsewhere (the client's elicitation), so windows drop it. */
  withdraw(id: string): void {
    this.waiting.get(id)?.finish('cancelled');
  }

  private publish(): void {
    this.ctx.events.publish({
      type: 'proposals',
      requestId: PROPOSALS_REQUEST_ID,
      seq: this.seq++,
      proposals: this.list(),
    });
  }
}

const proposalSlot: ServiceSlot<ProposalBoard> = {
  name: 'mcpProposals',
  create: (ctx) => new ProposalBoard(ctx),
  close: async (board) => {
    for (const proposal of board.list()) board.withdraw(proposal.id);
    await Promise.resolve();
  },
};

/** The app's board of coding agents' proposed writes. */
export function proposalBoard(ctx: CoreContext): ProposalBoard {
  return ctx.services.get(proposalSlot);
}
