import { create } from 'zustand';
import type { AppError, OperationEvent } from '../../../shared/ipc';
import { call, newRequestId } from '../../ipc/client';
import { onOperation } from '../operations/store';
import { useTablesStore } from '../tables/store';

export interface SignInState {
  connectionId: string;
  requestId: string;
  status: 'starting' | 'waiting' | 'done' | 'cancelled' | 'error';
  /** What main says to do next, e.g. "Open … and enter the code ABCD-EFGH". */
  message?: string;
  verificationUrl?: string;
  userCode?: string;
  /** DynoTable already opened the verification page in the user's browser. */
  isPageOpened?: boolean;
  error?: AppError;
}

interface SignInStore {
  current?: SignInState;
  start(connectionId: string): Promise<void>;
  cancel(): Promise<void>;
  dismiss(): void;
}

/** The verification page and user code main sends with the sign-in's progress. */
export function readSignInHints(event: OperationEvent): Partial<SignInState> {
  if (event.type !== 'progress') return {};
  const { message, verification } = event.progress;
  return {
    message,
    verificationUrl: verification?.url,
    userCode: verification?.userCode,
    isPageOpened: verification?.isOpened,
  };
}

export const useSignInStore = create<SignInStore>()((set, get) => ({
  current: undefined,

  async start(connectionId) {
    const requestId = newRequestId('signin');
    set({ current: { connectionId, requestId, status: 'starting' } });
    const stop = onOperation(requestId, (event) => {
      const current = get().current;
      if (current?.requestId !== requestId) {
        stop();
        return;
      }
      if (event.type === 'progress') {
        const hints = readSignInHints(event);
        set({
          current: {
            ...current,
            status: 'waiting',
            message: hints.message ?? current.message,
            verificationUrl: hints.verificationUrl ?? current.verificationUrl,
            userCode: hints.userCode ?? current.userCode,
            isPageOpened: hints.isPageOpened ?? current.isPageOpened,
          },
        });
        return;
      }
      if (
        event.type === 'page' ||
        event.type === 'agent' ||
        event.type === 'mfa' ||
        event.type === 'resultsets' ||
        event.type === 'written' ||
        event.type === 'journal' ||
        event.type === 'proposals' ||
        event.type === 'stream'
      )
        return;
      stop();
      if (event.type === 'done') {
        set({ current: { ...current, status: 'done' } });
        // Fresh credentials: reload what this connection shows; open tabs stay where they are.
        useTablesStore.getState().invalidate(connectionId);
      } else if (event.type === 'cancelled') set({ current: { ...current, status: 'cancelled' } });
      else set({ current: { ...current, status: 'error', error: event.error } });
    });
    const envelope = await call('connections:signIn', { connectionId, requestId });
    if (!envelope.ok) {
      stop();
      set({ current: { connectionId, requestId, status: 'error', error: envelope.error } });
    }
  },

  async cancel() {
    const current = get().current;
    if (current && (current.status === 'starting' || current.status === 'waiting')) {
      await call('ops:cancel', { requestId: current.requestId });
    }
    set({ current: undefined });
  },

  dismiss() {
    set({ current: undefined });
  },
}));
