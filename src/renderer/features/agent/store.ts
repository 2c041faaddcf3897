import { create } from 'zustand';
import type {
  AgentApproval,
  AgentBudgets,
  AgentSettings,
  AgentStep,
  AgentUsage,
  AppError,
  OperationEvent,
} from '../../../shared/ipc';
import { call } from '../../ipc/client';
import {
  cancelLongWork,
  type LongWorkEnding,
  type StartedLongWork,
  startLongWork,
} from '../operations/long-work';

export type ApprovalState = AgentApproval & { decision?: 'approved' | 'rejected'; outcome?: string };

/** One block of an assistant turn, in the order it happened. */
export type TurnBlock =
  | { kind: 'text'; text: string }
  | { kind: 'step'; step: AgentStep }
  | { kind: 'approval'; approval: ApprovalState }
  | { kind: 'notice'; message: string };

export interface ChatTurn {
  id: string;
  question: string;
  blocks: TurnBlock[];
  status: 'running' | 'done' | 'cancelled' | 'error';
  error?: AppError;
  usage?: AgentUsage;
  budgets?: AgentBudgets;
}

interface Chat {
  conversationId?: string;
  turns: ChatTurn[];
  runningRequestId?: string;
}

interface AgentStore {
  chats: Record<string, Chat>;
  settings: Record<string, AgentSettings>;
  ask(connectionId: string, question: string): Promise<AppError | undefined>;
  stop(connectionId: string): Promise<void>;
  decide(connectionId: string, approvalId: string, approve: boolean): Promise<void>;
  newConversation(connectionId: string): void;
  loadSettings(connectionId: string): Promise<AppError | undefined>;
  saveSettings(connectionId: string, settings: AgentSettings): Promise<AppError | undefined>;
}

const emptyChat: Chat = { turns: [] };

function applyEnding(turn: ChatTurn, ending: LongWorkEnding<'agent:ask'>): ChatTurn {
  if (ending.type === 'failed') return { ...turn, status: 'error', error: ending.error };
  return { ...turn, status: ending.type };
}

function applyEvent(turn: ChatTurn, event: OperationEvent): ChatTurn {
  if (event.type !== 'agent') return turn;
  const e = event.event;
  const blocks = [...turn.blocks];
  const last = blocks.at(-1);
  switch (e.kind) {
    case 'text':
      // Deltas join the open text block so the answer streams in place.
      if (last?.kind === 'text') blocks[blocks.length - 1] = { kind: 'text', text: last.text + e.delta };
      else blocks.push({ kind: 'text', text: e.delta });
      return { ...turn, blocks };
    case 'step': {
      const at = blocks.findIndex((b) => b.kind === 'step' && b.step.id === e.step.id);
      if (at >= 0) blocks[at] = { kind: 'step', step: e.step };
      else blocks.push({ kind: 'step', step: e.step });
      return { ...turn, blocks };
    }
    case 'approval':
      return { ...turn, blocks: [...blocks, { kind: 'approval', approval: e.approval }] };
    case 'approval-resolved':
      return {
        ...turn,
        blocks: blocks.map((b) =>
          b.kind === 'approval' && b.approval.id === e.id
            ? {
                kind: 'approval',
                approval: {
                  ...b.approval,
                  decision: e.approved ? 'approved' : 'rejected',
                  outcome: e.outcome,
                },
              }
            : b,
        ),
      };
    case 'usage':
      return { ...turn, usage: e.usage, budgets: e.budgets };
    case 'notice':
      return { ...turn, blocks: [...blocks, { kind: 'notice', message: e.message }] };
  }
}

export const useAgentStore = create<AgentStore>()((set, get) => {
  const updateChat = (connectionId: string, change: (chat: Chat) => Chat): void =>
    set((state) => ({
      chats: { ...state.chats, [connectionId]: change(state.chats[connectionId] ?? emptyChat) },
    }));
  const updateTurn = (connectionId: string, turnId: string, change: (turn: ChatTurn) => ChatTurn): void =>
    updateChat(connectionId, (chat) => ({
      ...chat,
      turns: chat.turns.map((t) => (t.id === turnId ? change(t) : t)),
    }));

  return {
    chats: {},
    settings: {},
    async ask(connectionId, question) {
      const conversationId = get().chats[connectionId]?.conversationId;
      let refusal: AppError | undefined;
      const work: StartedLongWork = startLongWork(
        'agent:ask',
        { connectionId, question, conversationId },
        {
          prefix: 'agent',
          onEvent: (event) => updateTurn(connectionId, work.requestId, (t) => applyEvent(t, event)),
          onStarted: (answer) =>
            updateChat(connectionId, (chat) => ({ ...chat, conversationId: answer.conversationId })),
          onEnd: (ending) => {
            if (ending.type === 'failed' && ending.isRefused) refusal = ending.error;
            updateTurn(connectionId, work.requestId, (t) => applyEnding(t, ending));
            updateChat(connectionId, (chat) => ({ ...chat, runningRequestId: undefined }));
          },
        },
      );
      const turn: ChatTurn = { id: work.requestId, question, blocks: [], status: 'running' };
      updateChat(connectionId, (chat) => ({
        ...chat,
        turns: [...chat.turns, turn],
        runningRequestId: work.requestId,
      }));
      await work.started;
      return refusal;
    },
    async stop(connectionId) {
      const requestId = get().chats[connectionId]?.runningRequestId;
      if (requestId) await cancelLongWork(requestId);
    },
    async decide(connectionId, approvalId, approve) {
      const result = await call('agent:decide', { approvalId, approve });
      if (!result.ok || !result.value.accepted) {
        // The question was cancelled meanwhile: show the card as closed rather than clickable forever.
        updateChat(connectionId, (chat) => ({
          ...chat,
          turns: chat.turns.map((t) => ({
            ...t,
            blocks: t.blocks.map((b) =>
              b.kind === 'approval' && b.approval.id === approvalId && !b.approval.decision
                ? {
                    kind: 'approval',
                    approval: {
                      ...b.approval,
                      decision: 'rejected',
                      outcome: 'This request is no longer waiting.',
                    },
                  }
                : b,
            ),
          })),
        }));
      }
    },
    newConversation(connectionId) {
      updateChat(connectionId, (chat) => (chat.runningRequestId ? chat : { turns: [] }));
    },
    async loadSettings(connectionId) {
      const result = await call('agent:getSettings', { connectionId });
      if (!result.ok) return result.error;
      set((state) => ({ settings: { ...state.settings, [connectionId]: result.value } }));
      return undefined;
    },
    async saveSettings(connectionId, settings) {
      const result = await call('agent:saveSettings', { connectionId, settings });
      if (!result.ok) return result.error;
      set((state) => ({ settings: { ...state.settings, [connectionId]: result.value } }));
      return undefined;
    },
  };
});
