import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import type { TableOperationPhase } from './use-table-operation';

/** Where a create or change is: following (with Cancel), done (with notes), cancelled or failed. */
export function OperationStatus({
  state,
  message,
  onCancel,
  connectionId,
  doneText,
}: {
  state: TableOperationPhase;
  message?: string;
  onCancel(): void;
  connectionId: string;
  doneText: string;
}) {
  if (state.phase === 'running')
    return (
      <div className="table-op-status" aria-live="polite">
        <div className="progress-bar is-indeterminate" role="progressbar" aria-label="Waiting for DynamoDB">
          <span />
        </div>
        <p className="small">
          {message ?? 'Sending…'}{' '}
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Stop waiting
          </Button>
        </p>
      </div>
    );
  if (state.phase === 'done')
    return (
      <div className="table-op-status is-done" role="status">
        <p>
          <strong>{doneText}</strong> {state.result.summary.name} is {state.result.summary.status}.
        </p>
        {state.result.notes.map((note) => (
          <p key={note} className="small muted">
            {note}
          </p>
        ))}
      </div>
    );
  if (state.phase === 'cancelled')
    return (
      <p className="table-op-status small" role="status">
        DynoTable stopped waiting. DynamoDB goes on with the change; refresh to see the table&apos;s state.
      </p>
    );
  if (state.phase === 'failed')
    return <ErrorMessage error={state.error} connectionId={connectionId} compact />;
  return null;
}
