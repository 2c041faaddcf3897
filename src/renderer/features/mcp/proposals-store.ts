import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import type { McpProposal } from '../../../shared/ipc/mcp';
import { call } from '../../ipc/client';

interface ProposalsStore {
  /** Writes coding agents proposed that wait for the user, oldest first (every connection). */
  proposals: McpProposal[];
  /** Ids being decided now, so a second click sends nothing. */
  deciding: string[];
  error?: AppError;
  /** Main's whole list, as a `proposals` event brings it. */
  received(proposals: McpProposal[]): void;
  /** At start and after a gap in the event stream: main's list now. */
  load(): Promise<void>;
  decide(id: string, approve: boolean): Promise<void>;
}

/**
 * Coding agents' proposed writes (MCP propose_changes) waiting for a decision in the app. Main
 * holds the list and publishes it whole when it changes, so every window shows the same.
 */
export const useProposalsStore = create<ProposalsStore>()((set, get) => ({
  proposals: [],
  deciding: [],

  received(proposals) {
    set((state) => ({
      proposals,
      deciding: state.deciding.filter((id) => proposals.some((p) => p.id === id)),
    }));
  },

  async load() {
    const envelope = await call('mcp:listProposals', {});
    if (envelope.ok) get().received(envelope.value.proposals);
  },

  async decide(id, approve) {
    if (get().deciding.includes(id)) return;
    set((state) => ({ deciding: [...state.deciding, id], error: undefined }));
    const envelope = await call('mcp:decideProposal', { id, approve });
    if (!envelope.ok) set({ error: envelope.error });
    // Decided here or elsewhere (the client, another window, the timeout): it waits no more.
    set((state) => ({
      proposals: state.proposals.filter((p) => p.id !== id),
      deciding: state.deciding.filter((d) => d !== id),
    }));
  },
}));
