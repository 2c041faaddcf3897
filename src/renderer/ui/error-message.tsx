import type { ReactNode } from 'react';
import type { AppError } from '../../shared/ipc';
import { splitConnectionId } from '../../shared/dynamo/regions';
import { useConnectionsStore } from '../features/connections/store';
import { useSignInStore } from '../features/sign-in/store';
import { Button } from './button';
import { Sentence } from './sentence';

/** Errors that a fresh sign-in repairs (an expired SSO session). */
export function canSignIn(error: AppError): boolean {
  return error.code === 'CredentialsExpired' || error.details?.canSignIn === true;
}

export interface ErrorMessageProps {
  error: AppError;
  /** The connection whose credentials a "Sign in again" would refresh. */
  connectionId?: string;
  onRetry?: () => void;
  compact?: boolean;
  /** One more way out that belongs to this error (SQL's "Fix with AI"), shown with the others. */
  action?: ReactNode;
}

/**
 * Every error in the UI: main's sentence, the code small beside it (for search and support),
 * and the one action that fixes it when there is one. Never a stack trace.
 */
export function ErrorMessage({ error, connectionId, onRetry, compact, action }: ErrorMessageProps) {
  const startSignIn = useSignInStore((state) => state.start);
  // Only profile connections (IAM Identity Center) can sign in again; keys need editing instead.
  // A table of another region goes through `<id>@<region>`: the sign-in is the connection's own.
  const ownId = connectionId === undefined ? undefined : splitConnectionId(connectionId).connectionId;
  const isProfile = useConnectionsStore(
    (state) => state.connections.find((connection) => connection.id === ownId)?.kind === 'profile',
  );
  const showSignIn = connectionId !== undefined && isProfile && canSignIn(error);
  return (
    <div className={`error-message${compact ? ' is-compact' : ''}`} role="alert">
      <span className="error-icon" aria-hidden="true">
        !
      </span>
      <div className="error-text">
        <p className="error-sentence">
          <Sentence text={error.message} />
        </p>
        <code className="error-code">{error.code}</code>
      </div>
      {showSignIn || onRetry || action ? (
        <div className="error-actions">
          {showSignIn ? (
            <Button variant="primary" size="sm" onClick={() => void startSignIn(connectionId)}>
              Sign in again
            </Button>
          ) : null}
          {onRetry ? (
            <Button size="sm" onClick={onRetry}>
              Try again
            </Button>
          ) : null}
          {action}
        </div>
      ) : null}
    </div>
  );
}
