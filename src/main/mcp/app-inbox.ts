import { mkdir } from 'node:fs/promises';
import type { McpProposal } from '../../shared/ipc/mcp';
import { approvalItems, requestJson } from '../agent/proposed-write';
import { writeApproved } from '../agent/write-executors';
import type { CoreContext, ServiceSlot } from '../core/context';
import { toAppError } from '../core/to-app-error';
import { watchFolder } from '../files/watch-folder';
import {
  claim,
  HEARTBEAT_MS,
  isAbandoned,
  isClaimed,
  proposalIds,
  proposalsDir,
  readProposal,
  removeHeartbeat,
  removeProposal,
  writeDecision,
  writeHeartbeat,
  type StdioDecision,
  type StdioProposal,
} from './proposal-files';
import { proposalBoard } from './proposals';
import { McpToolSession } from './tool-session';

/**
 * The app's side of stdio approvals: while the app runs it beats a heartbeat into the proposals
 * folder (so `dynotable mcp` knows someone will show its proposals), watches the folder, and puts
 * each proposal on the same board as the HTTP transport's. On approval the app writes the exact
 * requests through its write door, under source "mcp" and the client's name, with the same
 * executor as every approved agent write, then leaves the decision for the waiting server.
 */
export class StdioProposalInbox {
  private readonly dir: string;
  /** Proposals on the board, each withdrawn by aborting. */
  private readonly shown = new Map<string, AbortController>();
  private stopWatching?: () => void;
  private beat?: NodeJS.Timeout;
  private scanning = Promise.resolve();
  private isScanQueued = false;

  constructor(private readonly ctx: CoreContext) {
    this.dir = proposalsDir(ctx.dataDir);
  }

  async start(): Promise<void> {
    if (this.beat) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeHeartbeat(this.dir);
    this.beat = setInterval(() => void writeHeartbeat(this.dir).catch(() => undefined), HEARTBEAT_MS);
    this.beat.unref();
    this.stopWatching = watchFolder(this.dir, () => this.rescan());
    this.rescan();
    await this.scanning;
  }

  async close(): Promise<void> {
    clearInterval(this.beat);
    this.stopWatching?.();
    for (const controller of this.shown.values()) controller.abort();
    if (this.beat) await removeHeartbeat(this.dir).catch(() => undefined);
    this.beat = undefined;
  }

  /** One scan at a time; changes during a scan are seen by one more after it. */
  private rescan(): void {
    if (this.isScanQueued) return;
    this.isScanQueued = true;
    this.scanning = this.scanning.then(async () => {
      this.isScanQueued = false;
      await this.scan().catch(() => undefined);
    });
  }

  private async scan(): Promise<void> {
    const ids = new Set(await proposalIds(this.dir));
    // Withdrawn by the server (answered in the client, timed out, cancelled): off the board.
    for (const [id, controller] of this.shown) if (!ids.has(id)) controller.abort();
    for (const id of ids) {
      if (this.shown.has(id)) continue;
      const proposal = await readProposal(this.dir, id).catch(() => undefined);
      if (!proposal) continue;
      // A proposal of a server that ended (or long expired) goes; a claimed one is being answered.
      if (isAbandoned(proposal)) await removeProposal(this.dir, id);
      else if (!(await isClaimed(this.dir, id))) this.show(proposal);
    }
  }

  private show(proposal: StdioProposal): void {
    const controller = new AbortController();
    this.shown.set(proposal.id, controller);
    const { writes } = proposal;
    const card: McpProposal = {
      id: proposal.id,
      kind: 'write',
      summary: proposal.summary,
      // Built here from the writes the app would send, so the card shows exactly what is sent.
      requests: writes.map(requestJson),
      items: approvalItems(writes),
      connectionId: proposal.connectionId,
      connectionLabel: proposal.connectionLabel,
      client: proposal.client,
      at: proposal.at,
      expiresAt: proposal.expiresAt,
    };
    void proposalBoard(this.ctx)
      .show(card, controller.signal, () => claim(this.dir, proposal.id, 'app'))
      .then(async (outcome) => {
        if (outcome === 'approved') await writeDecision(this.dir, proposal.id, await this.write(proposal));
        if (outcome === 'rejected') await writeDecision(this.dir, proposal.id, { approved: false });
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.shown.get(proposal.id) === controller) this.shown.delete(proposal.id);
      });
  }

  /** The approved writes, through the one executor of approved agent writes. */
  private async write(proposal: StdioProposal): Promise<StdioDecision> {
    try {
      const connection = await this.ctx.connections.get(proposal.connectionId);
      const session = new McpToolSession({
        ctx: this.ctx,
        connection,
        tables: proposal.tables,
        maxItems: 1,
        maxRcu: 1,
        allowWrites: true,
        allowScans: false,
      });
      const call = session.forCall(new AbortController().signal, () => undefined, proposal.client);
      return {
        approved: true,
        ...(await writeApproved(call, proposal.writes, proposal.reason, proposal.id)),
      };
    } catch (error) {
      return {
        approved: false,
        error: `The user approved these changes in DynoTable, but DynoTable could not write them: ${toAppError(error).message} Nothing was written.`,
      };
    }
  }
}

const inboxSlot: ServiceSlot<StdioProposalInbox> = {
  name: 'mcpStdioInbox',
  create: (ctx) => new StdioProposalInbox(ctx),
  close: (inbox) => inbox.close(),
};

/** The app's reader of the proposals `dynotable mcp` leaves in the data folder. */
export function stdioProposalInbox(ctx: CoreContext): StdioProposalInbox {
  return ctx.services.get(inboxSlot);
}
