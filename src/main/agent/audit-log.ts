import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { dataFolder } from '../files/data-folder';

export type AuditEntry =
  | { type: 'question'; question: string }
  | {
      type: 'tool-call';
      tool: string;
      input: unknown;
      outcome: 'done' | 'error' | 'refused';
      summary: string;
    }
  | { type: 'approval'; approvalId: string; kind: 'read' | 'write'; approved: boolean; requests: unknown[] }
  | { type: 'write'; approvalId: string; outcome: string }
  | { type: 'answer'; stopReason: string };

/**
 * An append-only JSON Lines log on disk of every tool call, approval and write the agent made,
 * so a user can always reconstruct what happened to their tables and why.
 */
export class AuditLog {
  readonly file: string;
  private chain: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = dataFolder.agentAudit(dataDir);
  }

  record(context: { connectionId: string; conversationId: string }, entry: AuditEntry): Promise<void> {
    const line = JSON.stringify({ at: new Date().toISOString(), ...context, ...entry }) + '\n';
    // Serialised so concurrent steps never interleave half lines.
    this.chain = this.chain
      .then(() => mkdir(dirname(this.file), { recursive: true }))
      .then(() => appendFile(this.file, line, { mode: 0o600 }))
      .catch(() => undefined);
    return this.chain;
  }
}
