import { useState } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { LockIcon } from '../../../ui/icons';
import { connectionSubtitle } from '../describe';
import { useConnectionsStore } from '../store';

export interface ConnectionCardProps {
  connection: Connection;
  onOpen(): void;
  onEdit(): void;
}

export function ConnectionCard({ connection, onOpen, onEdit }: ConnectionCardProps) {
  const test = useConnectionsStore((state) => state.tests[connection.id]);
  const runTest = useConnectionsStore((state) => state.test);
  const remove = useConnectionsStore((state) => state.remove);
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<AppError>();

  return (
    <li
      className={`connection-card${connection.isProduction ? ' is-production' : ''}`}
      data-testid="connection-card"
    >
      <span className="connection-color" style={{ background: connection.color }} aria-hidden="true" />
      <div className="connection-main">
        <button type="button" className="connection-open" onClick={onOpen} title={`Open ${connection.label}`}>
          <span className="connection-label">{connection.label}</span>
          <span className="connection-subtitle">{connectionSubtitle(connection)}</span>
        </button>
        <div className="connection-badges">
          {connection.isProduction ? <Badge tone="danger">PRODUCTION</Badge> : null}
          {connection.readOnly ? (
            <Badge tone="muted" title="Writes are refused on this connection">
              <LockIcon /> Read-only
            </Badge>
          ) : null}
        </div>
        {test && test !== 'pending' ? (
          test.ok ? (
            <p className="test-result is-ok" role="status">
              ✓ {test.message}
            </p>
          ) : (
            <ErrorMessage
              compact
              connectionId={test.canSignIn ? connection.id : undefined}
              error={{
                code: test.errorCode ?? 'ConnectionFailed',
                message: test.message,
                retryable: true,
                details: test.canSignIn ? { canSignIn: true } : undefined,
              }}
            />
          )
        ) : null}
        {deleteError ? <ErrorMessage compact error={deleteError} /> : null}
      </div>
      <div className="connection-actions">
        {isConfirmingDelete ? (
          <>
            <span className="muted">Delete “{connection.label}”?</span>
            <Button
              size="sm"
              variant="danger"
              onClick={() => {
                void remove(connection.id).then((error) => {
                  setDeleteError(error);
                  setIsConfirmingDelete(false);
                });
              }}
            >
              Delete
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setIsConfirmingDelete(false)}>
              Keep
            </Button>
          </>
        ) : (
          <>
            <Button
              size="sm"
              variant="ghost"
              isBusy={test === 'pending'}
              onClick={() => void runTest(connection.id)}
            >
              Test
            </Button>
            <Button size="sm" variant="ghost" onClick={onEdit}>
              Edit
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setIsConfirmingDelete(true)}>
              Delete
            </Button>
            <Button size="sm" variant="primary" onClick={onOpen}>
              Open
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
