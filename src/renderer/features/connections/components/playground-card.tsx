import type { Connection } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { LockIcon } from '../../../ui/icons';
import { Sentence } from '../../../ui/sentence';
import { usePlaygroundProgress } from '../hooks';
import { useConnectionsStore } from '../store';

export interface PlaygroundCardProps {
  /** The built-in connection as main lists it (renamed, recoloured, flagged by the user). */
  playground?: Connection;
  onOpen(connectionId: string): void;
  onEdit(): void;
}

/** The first thing a new user sees: a local DynamoDB with sample data, no AWS account needed. */
export function PlaygroundCard({ playground, onOpen, onEdit }: PlaygroundCardProps) {
  const status = useConnectionsStore((state) => state.playground);
  const error = useConnectionsStore((state) => state.playgroundError);
  const isStarting = useConnectionsStore(
    (state) => state.isPlaygroundStarting || state.playground.state === 'starting',
  );
  const start = useConnectionsStore((state) => state.startPlayground);
  usePlaygroundProgress();

  const isUnavailable = status.state === 'unavailable';
  const label = playground?.label ?? 'Local playground';
  const open = async () => {
    const connection = await start();
    if (connection) onOpen(connection.id);
  };

  return (
    <section
      className={`playground-card${isUnavailable ? ' is-unavailable' : ''}`}
      style={!isUnavailable && playground ? { borderLeftColor: playground.color } : undefined}
      aria-label="Local playground"
      data-testid="playground-card"
    >
      <div className="playground-text">
        <div className="playground-title">
          <h2>{label}</h2>
          {label !== 'Local playground' ? <span className="muted">Local playground</span> : null}
          {playground?.isProduction ? <Badge tone="danger">PRODUCTION</Badge> : null}
          {playground?.readOnly ? (
            <Badge tone="muted" title="Writes are refused on this connection">
              <LockIcon /> Read-only
            </Badge>
          ) : null}
        </div>
        <p>
          DynamoDB Local on this machine with a sample single-table design — users, orders and payments, a GSI
          and a sparse index. Nothing leaves your computer and nothing is billed.
        </p>
        {isStarting ? (
          <div className="playground-progress" role="status">
            <div className="progress-bar is-indeterminate" aria-hidden="true">
              <span />
            </div>
            <span>{status.message ?? 'Starting DynamoDB Local…'}</span>
          </div>
        ) : null}
        {!isStarting && status.state === 'running' && status.endpoint ? (
          <p className="muted small">Running at {status.endpoint}</p>
        ) : null}
        {!isStarting && status.state === 'running' && status.message ? (
          <div className="notice notice-warning" role="status">
            <p>{status.message}</p>
          </div>
        ) : null}
        {!isStarting && isUnavailable ? (
          <div className="notice notice-warning" role="alert">
            <strong>The playground cannot start here.</strong>
            <p>
              <Sentence text={status.message ?? 'DynamoDB Local needs Java 17 or newer.'} />
            </p>
          </div>
        ) : null}
        {!isStarting && error ? <ErrorMessage error={error} /> : null}
        {!isStarting && status.state === 'failed' && !error && status.message ? (
          <div className="notice notice-warning" role="alert">
            <p>{status.message}</p>
          </div>
        ) : null}
      </div>
      <div className="playground-action">
        {playground ? (
          <Button
            variant="ghost"
            onClick={onEdit}
            aria-label={`Edit ${label}`}
            title="Name, colour and flags"
          >
            Edit
          </Button>
        ) : null}
        <Button variant="primary" isBusy={isStarting} onClick={() => void open()}>
          {isStarting
            ? 'Starting…'
            : isUnavailable || status.state === 'failed'
              ? 'Try again'
              : 'Open playground'}
        </Button>
      </div>
    </section>
  );
}
