import { call } from '../../../ipc/client';
import { useOperation } from '../store';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';

/** Progress of a long write (bulk, export, import) with cancel, and how it ended. */
export function OperationStatus({
  requestId,
  connectionId,
  render,
}: {
  requestId: string;
  connectionId?: string;
  render(value: unknown): React.ReactNode;
}) {
  const operation = useOperation(requestId);
  const latest = operation?.latest;
  const progress = operation?.progress;
  if (!operation || !latest) return <p className="muted">Starting…</p>;
  if (latest.type === 'error') return <ErrorMessage error={latest.error} connectionId={connectionId} />;
  return (
    <div className="operation-status" role="status">
      {progress ? (
        <p>
          {progress.items.toLocaleString('en-US')} processed{progress.message ? ` — ${progress.message}` : ''}
        </p>
      ) : null}
      {progress?.fraction !== undefined && !operation.isFinished ? (
        <span className="progress-bar" aria-hidden="true">
          <span style={{ width: `${Math.round(progress.fraction * 100)}%` }} />
        </span>
      ) : null}
      {!operation.isFinished ? (
        <Button size="sm" variant="danger" onClick={() => void call('ops:cancel', { requestId })}>
          Cancel
        </Button>
      ) : null}
      {latest.type === 'cancelled' ? <p>Cancelled. What was done before stays done.</p> : null}
      {latest.type === 'done' ? render(latest.value) : null}
    </div>
  );
}
