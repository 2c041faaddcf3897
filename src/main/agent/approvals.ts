import { randomUUID } from 'node:crypto';

interface Pending {
  resolve: (approved: boolean) => void;
}

/**
 * Approval cards waiting for the user. A write (or a costly read in "ask" mode) runs only when
 * `decide(id, true)` arrives from the user; cancelling the question rejects what is pending.
 */
export class Approvals {
  private readonly pending = new Map<string, Pending>();
  /** Why a card was rejected, when it was not the user's "Reject" (no answer in time, say). */
  private readonly reasons = new Map<string, string>();

  newId(): string {
    return `appr_${randomUUID()}`;
  }

  wait(id: string, signal: AbortSignal): Promise<boolean> {
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

  /** The sentence a rejection was given (once), if it was given one. */
  takeReason(id: string): string | undefined {
    const why = this.reasons.get(id);
    this.reasons.delete(id);
    return why;
  }
}
