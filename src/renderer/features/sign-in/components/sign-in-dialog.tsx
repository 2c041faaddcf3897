import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { connectionSubtitle } from '../../connections/describe';
import { useConnectionsStore } from '../../connections/store';
import { useSignInStore, type SignInState } from '../store';
import { SignInSteps } from './sign-in-steps';
import '../sign-in.css';

function Outcome({ current, profile }: { current: SignInState; profile?: string }) {
  const who = profile ? ` to profile "${profile}"` : '';
  if (current.status === 'done') {
    // No expiry time here: the SDK renews the hour-long access token by itself for as long as
    // the IAM Identity Center session lasts, which AWS does not tell us.
    return (
      <div className="sign-in-outcome is-done" role="status">
        <p className="sign-in-outcome-title">✓ Signed in{who}.</p>
        <p>Your open tabs reload with the new session, just as you left them.</p>
      </div>
    );
  }
  if (current.status === 'cancelled') {
    return (
      <p className="sign-in-outcome" role="status">
        Sign-in was cancelled; nothing changed.
      </p>
    );
  }
  if (current.status === 'error' && current.error) {
    return (
      <div className="sign-in-outcome">
        <p className="sign-in-outcome-title">Could not sign in{who}.</p>
        <ErrorMessage error={current.error} />
        <p className="muted small">Your open tabs are untouched. Fix the cause, then try again.</p>
      </div>
    );
  }
  return null;
}

/**
 * The SSO device sign-in: main starts it and reports the verification address and code as
 * operation events. It is a dialog over the workspace, so open tabs stay exactly as they were.
 */
export function SignInDialog() {
  const current = useSignInStore((state) => state.current);
  const start = useSignInStore((state) => state.start);
  const cancel = useSignInStore((state) => state.cancel);
  const dismiss = useSignInStore((state) => state.dismiss);
  const connection = useConnectionsStore((state) =>
    state.connections.find((candidate) => candidate.id === current?.connectionId),
  );
  if (!current) return null;

  const isWorking = current.status === 'starting' || current.status === 'waiting';
  const close = () => {
    if (isWorking) void cancel();
    else dismiss();
  };
  const retry = () => void start(current.connectionId);

  return (
    <Dialog
      title="Sign in again"
      onClose={close}
      width="md"
      footer={
        current.status === 'done' ? (
          <Button variant="primary" onClick={dismiss}>
            Continue
          </Button>
        ) : isWorking ? (
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={close}>
              Close
            </Button>
            <Button variant="primary" onClick={retry}>
              Try again
            </Button>
          </>
        )
      }
    >
      {connection ? (
        <p className="sign-in-connection">
          <span className="sign-in-color" style={{ background: connection.color }} aria-hidden="true" />
          <strong>{connection.label}</strong>
          <span className="muted">{connectionSubtitle(connection)}</span>
        </p>
      ) : null}
      {current.status === 'starting' ? (
        <p className="sign-in-pending muted" role="status">
          <span className="spinner" aria-hidden="true" />
          Asking IAM Identity Center for a sign-in code…
        </p>
      ) : null}
      {current.status === 'waiting' ? (
        <SignInSteps
          verificationUrl={current.verificationUrl}
          userCode={current.userCode}
          isPageOpened={current.isPageOpened}
        />
      ) : null}
      <Outcome current={current} profile={connection?.profile} />
    </Dialog>
  );
}
