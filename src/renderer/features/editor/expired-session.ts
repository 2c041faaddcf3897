import type { AppError } from '../../../shared/ipc';
import type { StagedEntry } from './store';

/**
 * The session expired after earlier transactions of a commit landed: the commit call succeeded,
 * so there is no commit error, only changes that failed with the expired-session sentence. As an
 * error of its own, shown once above them, it gets the "Sign in again" every other expired
 * session gets (ErrorMessage offers it on profile connections).
 */
export function expiredSessionError(staged: readonly StagedEntry[]): AppError | undefined {
  const failed = staged.find((s) => s.result?.status === 'failed' && s.result.canSignIn)?.result;
  if (!failed) return undefined;
  return {
    code: failed.code ?? 'ExpiredTokenException',
    message: failed.message ?? 'Your AWS session has expired.',
    retryable: false,
    details: { canSignIn: true },
  };
}
