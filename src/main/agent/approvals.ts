import { randomUUID } from 'node:crypto';
import type { ProposedWrite } from './proposed-write';

interface Pending {
  resolve: (approved: boolean) => void;
  /** What a write card would send, for whoever shows the card elsewhere (the app, for stdio MCP). */
  proposed?: ProposedWrites;
}

/** A write card's writes and the model's reason for them. */
export interface ProposedWrites {
  writes: ProposedWrite[];
  reason: string;
}

/** Writes already made by whoever approved them (the app, for a proposal from `dynotable mcp`). */
export interface ApprovedWrites {
  outcomes: string[];
  summary: string;
}

/**
 * Approval cards waiting for the user. A write (or a costly read in "ask" mode) runs only when
 * `decide(id, true)` arrives from the user; cancelling the question rejects what is pending.
 */
export class Approvals {
  private readonly pending = new Map<string, Pending>();
  /** Why a card was rejected, when it was not the user's "Reject" (no answer in time, say). */
  private readonly reasons = new Map<string, string>();
  private readonly written = new Map<string, ApprovedWrites>();

  newId(): string {
    return `appr_${randomUUID()}`;
  }

  wait(id: string, signal: AbortSignal, proposed?: ProposedWrites): Promise<boolean> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve(false);
        return;
      }
      const onAbort = (): void => {
        this.pending.delete(id);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (approved) => {
          signal.removeEventListener('abort', onAbort);
          resolve(approved);
        },
        proposed,
      });
    });
  }

  decide(id: string, approve: boolean, why?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    if (!approve && why) this.reasons.set(id, why);
    entry.resolve(approve);
    return true;
  }

  /** What a pending write card would send. */
  proposedOf(id: string): ProposedWrites | undefined {
    return this.pending.get(id)?.proposed;
  }

  /** Approved, and already written by whoever approved (the app): the waiting call only reports. */
  decideWritten(id: string, done: ApprovedWrites): boolean {
    if (!this.pending.has(id)) return false;
    this.written.set(id, done);
    return this.decide(id, true);
  }

  /** What an approval written elsewhere did (once), if it was written elsewhere. */
  takeWritten(id: string): ApprovedWrites | undefined {
    const done = this.written.get(id);
    this.written.delete(id);
    return done;
  }

  /** The sentence a rejection was given (once), if it was given one. */
  takeReason(id: string): string | undefined {
    const why = this.reasons.get(id);
    this.reasons.delete(id);
    return why;
  }
}
