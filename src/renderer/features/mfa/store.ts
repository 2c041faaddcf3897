import { create } from 'zustand';
import type { AppError, MfaPrompt, OperationEvent } from '../../../shared/ipc';
import { call } from '../../ipc/client';
import { followLongWork } from '../operations/long-work';
import { useOperationsStore } from '../operations/store';

export interface MfaPromptState extends MfaPrompt {
  promptId: string;
  isSending: boolean;
  /** Main refused the answer (the prompt expired meanwhile, for example). */
  error?: AppError;
}

interface MfaStore {
  /** Prompts waiting for a code, oldest first; the dialog shows the first. */
  prompts: MfaPromptState[];
  prompted(event: Extract<OperationEvent, { type: 'mfa' }>): void;
  submit(promptId: string, code: string): Promise<void>;
  cancel(promptId: string): Promise<void>;
}

/**
 * MFA codes main asks for while a call waits on an assume-role profile. The code is sent once
 * and kept nowhere: not in this store, which only ever holds the prompt.
 */
export const useMfaStore = create<MfaStore>()((set, get) => {
  const remove = (promptId: string): void =>
    set((state) => ({ prompts: state.prompts.filter((prompt) => prompt.promptId !== promptId) }));
  const update = (promptId: string, patch: Partial<MfaPromptState>): void =>
    set((state) => ({
      prompts: state.prompts.map((prompt) =>
        prompt.promptId === promptId ? { ...prompt, ...patch } : prompt,
      ),
    }));

  return {
    prompts: [],

    prompted(event) {
      const promptId = event.requestId;
      if (get().prompts.some((prompt) => prompt.promptId === promptId)) return;
      set((state) => ({ prompts: [...state.prompts, { ...event.mfa, promptId, isSending: false }] }));
      // Answered (here or in another window), cancelled or expired: the prompt's last event closes it.
      followLongWork(undefined, promptId, {
        onEnd: () => {
          remove(promptId);
          useOperationsStore.getState().forget(promptId);
        },
      });
    },

    async submit(promptId, code) {
      update(promptId, { isSending: true, error: undefined });
      const envelope = await call('connections:mfaCode', { promptId, code });
      if (envelope.ok) remove(promptId);
      else update(promptId, { isSending: false, error: envelope.error });
    },

    async cancel(promptId) {
      remove(promptId);
      // The waiting call ends with main's sentence; a prompt that already ended needs nothing.
      await call('connections:mfaCode', { promptId, cancel: true });
    },
  };
});
