import { PROPOSALS_REQUEST_ID } from '../../shared/ipc/operations';
import type { McpProposal } from '../../shared/ipc/mcp';
import type { ApprovedWrites, ProposedWrites } from '../agent/approvals';
import type { CoreContext, ServiceSlot } from '../core/context';

/** How a proposal ended: the user's answer in the app, or none in time, or the call went away. */
export type ProposalOutcome = 'approved' | 'rejected' | 'expired' | 'cancelled';

/** How long an agent's proposal waits for the user before it is rejected (the agent is told). */
export const PROPOSAL_TIMEOUT_MS = 10 * 60_000;

/** How a proposal ended, with what the app wrote when the app itself wrote it (a stdio proposal). */
export interface ProposalDecision {
  outcome: ProposalOutcome;
  written?: ApprovedWrites;
  /** The sentence for the agent when the app could not write at all. */
  error?: string;
}

/** A proposal as an MCP server hands it to the app: what the card shows, and what it writes. */
export type ProposalDraft = Omit<McpProposal, 'at' | 'expiresAt'>;

/**
 * Where an MCP server shows the writes an agent proposes to the user in the app: the app's own
 * board (HTTP, served by the app) or the proposals folder the app watches (`dynotable mcp`).
 */
export interface ProposalDesk {
  /** Whether an app is there now to show a proposal. */
  isOpen(): Promise<boolean>;
  /** Shows the proposal in the app and resolves with how it ended; never rejects. */
  propose(
    draft: ProposalDraft,
    proposed: ProposedWrites,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ProposalDecision>;
  /**
   * The client's own answer (elicitation) counts only when it comes first: true when it does,
   * and the app's copy is withdrawn; false when the app decided first (its decision follows).
   */
  claim(id: string): Promise<boolean>;
}

interface Waiting {
  proposal: McpProposal;
  finish(outcome: ProposalOutcome): void;
  /** For a proposal another process also answers: whether the app's answer still comes first. */
  claim?: () => Promise<boolean>;
  isDeciding?: boolean;
}

/**
 * Writes coding agents proposed over MCP that wait for the user in the app. Every change of the
 * list is published whole (a `proposals` event), so each window shows what waits wherever the
 * user is; the first answer wins, whether it comes from a window, the client's own elicitation,
 * the timeout or the agent cancelling its call.
 */
export class ProposalBoard implements ProposalDesk {
  private readonly waiting = new Map<string, Waiting>();
  private seq = 0;

  constructor(private readonly ctx: CoreContext) {}

  list(): McpProposal[] {
    return [...this.waiting.values()].map((w) => w.proposal);
  }

  isOpen(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** A proposal of this process's HTTP transport: the waiting tool call writes it once approved. */
  async propose(
    draft: ProposalDraft,
    _proposed: ProposedWrites,
    signal: AbortSignal,
    timeoutMs = PROPOSAL_TIMEOUT_MS,
  ): Promise<ProposalDecision> {
    const at = new Date();
    const proposal = {
      ...draft,
      at: at.toISOString(),
      expiresAt: new Date(at.getTime() + timeoutMs).toISOString(),
    };
    return { outcome: await this.show(proposal, signal) };
  }

  claim(id: string): Promise<boolean> {
    const entry = this.waiting.get(id);
    if (!entry || entry.isDeciding) return Promise.resolve(false);
    entry.finish('cancelled');
    return Promise.resolve(true);
  }

  /**
   * Shows a proposal until its `expiresAt` and resolves with how it ended; never rejects.
   * `claim`: asked before the user's answer counts (another process may have decided first).
   */
  show(proposal: McpProposal, signal: AbortSignal, claim?: () => Promise<boolean>): Promise<ProposalOutcome> {
    return new Promise((resolve) => {
      const finish = (outcome: ProposalOutcome): void => {
        if (!this.waiting.delete(proposal.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.publish();
        resolve(outcome);
      };
      const onAbort = (): void => finish('cancelled');
      const timer = setTimeout(
        () => finish('expired'),
        Math.max(0, Date.parse(proposal.expiresAt) - Date.now()),
      );
      timer.unref();
      this.waiting.set(proposal.id, { proposal, finish, ...(claim ? { claim } : {}) });
      if (signal.aborted) {
        finish('cancelled');
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.publish();
    });
  }

  /** The user's answer; false when the proposal no longer waits (decided elsewhere, expired). */
  async decide(id: string, approve: boolean): Promise<boolean> {
    const entry = this.waiting.get(id);
    if (!entry || entry.isDeciding) return false;
    entry.isDeciding = true;
    const isFirst = entry.claim ? await entry.claim().catch(() => false) : true;
    entry.finish(isFirst ? (approve ? 'approved' : 'rejected') : 'cancelled');
    return isFirst;
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
