import { call } from '../../../ipc/client';
import type { OperationChannel, OperationDone } from '../../../../shared/ipc/contract';
import { doneValueOf, useOperation } from '../store';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';

/** Progress of a long write (bulk, export, import) with cancel, and how it ended. */
export function OperationStatus<C extends OperationChannel>({
  channel,
  requestId,
  connectionId,
  render,
}: {
  /** The channel that started the work: its done value is checked against the contract. */
  channel: C;
  requestId: string;
  connectionId?: string;
  render(value: OperationDone<C>): React.ReactNode;
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
      {latest.type === 'done' ? <Done value={doneValueOf(channel, latest.value)} render={render} /> : null}
    </div>
  );
}

function Done<T>({ value, render }: { value: T | undefined; render(value: T): React.ReactNode }) {
  return value === undefined ? <p>Done.</p> : render(value);
}
