import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { openExternal } from '../../app-info/store';
import { connectionSubtitle } from '../../connections/describe';
import { useConnectionsStore } from '../../connections/store';
import { useSignInStore } from '../store';

/**
 * The SSO device sign-in: main starts it and reports the verification address and code as
 * operation events. It is a dialog over the workspace, so open tabs stay exactly as they were.
 */
export function SignInDialog() {
  const current = useSignInStore((state) => state.current);
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
  const verificationUrl = current.verificationUrl;

  return (
    <Dialog
      title="Sign in again"
      onClose={close}
      width="sm"
      footer={
        current.status === 'done' ? (
          <Button variant="primary" onClick={dismiss}>
            Continue
          </Button>
        ) : (
          <Button variant="ghost" onClick={close}>
            {isWorking ? 'Cancel' : 'Close'}
          </Button>
        )
      }
    >
      {connection ? (
        <p className="sign-in-connection">
          <strong>{connection.label}</strong>{' '}
          <span className="muted">· {connectionSubtitle(connection)}</span>
        </p>
      ) : null}
      {current.status === 'starting' ? (
        <p role="status">Asking AWS IAM Identity Center for a sign-in code…</p>
      ) : null}
      {current.status === 'waiting' ? (
        <div className="sign-in-steps" role="status">
          {current.userCode ? (
            <>
              <p>Confirm this code in your browser:</p>
              <p className="user-code" data-testid="user-code">
                {current.userCode}
              </p>
            </>
          ) : null}
          {current.message ? <p className="muted">{current.message}</p> : null}
          {verificationUrl ? (
            <Button variant="primary" onClick={() => void openExternal(verificationUrl)}>
              Open the sign-in page
            </Button>
          ) : null}
          <p className="muted small">DynoTable continues by itself once you have approved the request.</p>
        </div>
      ) : null}
      {current.status === 'done' ? (
        <p role="status">Signed in. Your open tabs reload with the new session.</p>
      ) : null}
      {current.status === 'cancelled' ? <p role="status">Sign-in was cancelled.</p> : null}
      {current.status === 'error' && current.error ? <ErrorMessage error={current.error} /> : null}
    </Dialog>
  );
}
