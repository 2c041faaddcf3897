import { create } from 'zustand';
import type { AppError, OperationEvent } from '../../../shared/ipc';
import { newRequestId } from '../../ipc/client';
import { cancelLongWork, startLongWork } from '../operations/long-work';
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
  /**
   * How many sign-ins finished for each connection in this window. It outlives the dialog: a
   * view whose read the expired session refused reads again once its table is described, which
   * may be after the user closed the dialog.
   */
  renewals: Readonly<Record<string, number>>;
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
  renewals: {},

  async start(connectionId) {
    const requestId = newRequestId('signin');
    set({ current: { connectionId, requestId, status: 'starting' } });
    // Followed while it is the sign-in on screen: a newer one (or a dismissed one) is not.
    const shown = (): SignInState | undefined => {
      const current = get().current;
      if (current?.requestId === requestId) return current;
      work.stop();
      return undefined;
    };
    const work = startLongWork(
      'connections:signIn',
      { connectionId },
      {
        requestId,
        // The device code and the page to open come with progress while main waits for the browser.
        onEvent: (event) => {
          const current = event.type === 'progress' ? shown() : undefined;
          if (!current) return;
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
        },
        onEnd: (ending) => {
          const current = shown();
          if (!current) return;
          if (ending.type === 'done') {
            set((state) => ({
              current: { ...current, status: 'done' },
              renewals: { ...state.renewals, [connectionId]: (state.renewals[connectionId] ?? 0) + 1 },
            }));
            // Fresh credentials: reload what this connection shows; open tabs stay where they are.
            useTablesStore.getState().invalidate(connectionId);
          } else if (ending.type === 'cancelled') set({ current: { ...current, status: 'cancelled' } });
          else set({ current: { ...current, status: 'error', error: ending.error } });
        },
      },
    );
    await work.started;
  },

  async cancel() {
    const current = get().current;
    if (current && (current.status === 'starting' || current.status === 'waiting')) {
      await cancelLongWork(current.requestId);
    }
    set({ current: undefined });
  },

  dismiss() {
    set({ current: undefined });
  },
}));
