import { mkdir } from 'node:fs/promises';
import type { ProposedWrites } from '../agent/approvals';
import { watchFolder } from '../files/watch-folder';
import {
  claim,
  isAppWatching,
  proposalsDir,
  readDecision,
  removeProposal,
  writeProposal,
  type StdioDecision,
} from './proposal-files';
import type { ProposalDecision, ProposalDesk, ProposalDraft } from './proposals';

/** How long the server still waits for an app that claimed a proposal (it is writing) past the timeout. */
const WRITING_GRACE_MS = 60_000;

function decisionOf(decision: StdioDecision): ProposalDecision {
  if (decision.error) return { outcome: 'rejected', error: decision.error };
  if (!decision.approved) return { outcome: 'rejected' };
  return {
    outcome: 'approved',
    written: { outcomes: decision.outcomes ?? [], summary: decision.summary ?? '' },
  };
}

/**
 * The desk of `dynotable mcp`, a process of its own: a proposal goes to the proposals folder of
 * the data folder it shares with the app, the running app shows it and, on approval, writes it
 * through its write door and leaves the decision, which this server waits for and reports. With
 * no app running (no fresh heartbeat) the desk is closed and the client's elicitation decides.
 */
export class StdioProposalDesk implements ProposalDesk {
  private readonly dir: string;
  /** Proposals this process claimed (its client answered first, or the time ran out). */
  private readonly claimedHere = new Set<string>();

  constructor(
    dataDir: string,
    /** The server's table allow-list, which the app checks again when it writes. */
    private readonly tables: string[],
  ) {
    this.dir = proposalsDir(dataDir);
  }

  isOpen(): Promise<boolean> {
    return isAppWatching(this.dir);
  }

  async claim(id: string): Promise<boolean> {
    const isFirst = await claim(this.dir, id, 'client').catch(() => false);
    if (isFirst) this.claimedHere.add(id);
    return isFirst;
  }

  async propose(
    draft: ProposalDraft,
    proposed: ProposedWrites,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<ProposalDecision> {
    const at = new Date();
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeProposal(this.dir, {
      id: draft.id,
      pid: process.pid,
      connectionId: draft.connectionId,
      connectionLabel: draft.connectionLabel,
      client: draft.client,
      tables: this.tables,
      reason: proposed.reason,
      summary: draft.summary,
      at: at.toISOString(),
      expiresAt: new Date(at.getTime() + timeoutMs).toISOString(),
      writes: proposed.writes,
    });
    try {
      return await this.decision(draft.id, signal, timeoutMs);
    } finally {
      this.claimedHere.delete(draft.id);
    }
  }

  /** Waits for the app's decision, the time to run out, or the call to go away; never rejects. */
  private decision(id: string, signal: AbortSignal, timeoutMs: number): Promise<ProposalDecision> {
    return new Promise((resolve) => {
      let isDone = false;
      const finish = (decision: ProposalDecision, isOurs: boolean): void => {
        if (isDone) return;
        isDone = true;
        stop();
        clearTimeout(timer);
        clearTimeout(grace);
        signal.removeEventListener('abort', onAbort);
        // The app reads no more of it; what the app claimed but never answered it drops itself.
        if (isOurs) void removeProposal(this.dir, id).catch(() => undefined);
        resolve(decision);
      };
      const check = (): void => {
        void readDecision(this.dir, id).then(
          (decision) => decision && finish(decisionOf(decision), true),
          () => undefined,
        );
      };
      /** Claims for `outcome` unless someone decided first; the app that claimed then answers. */
      const endAs = async (outcome: 'expired' | 'cancelled'): Promise<void> => {
        const isOurs = this.claimedHere.has(id) || (await claim(this.dir, id, outcome).catch(() => false));
        if (isOurs || outcome === 'cancelled') finish({ outcome }, isOurs);
        else check();
      };
      const onAbort = (): void => void endAs('cancelled');
      const stop = watchFolder(this.dir, check);
      const timer = setTimeout(() => void endAs('expired'), timeoutMs);
      // An app that claimed the proposal and then died leaves no decision: give up after a while.
      const grace = setTimeout(() => finish({ outcome: 'expired' }, true), timeoutMs + WRITING_GRACE_MS);
      timer.unref();
      grace.unref();
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }
}
