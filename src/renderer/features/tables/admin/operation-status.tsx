import { ErrorMessage } from '../../../ui/error-message';
import { noNumbers, OperationProgress } from '../../operations/components/operation-progress';
import type { TableOperationPhase } from './use-table-operation';

/** Where a create or change is: following (with Cancel), done (with notes), cancelled or failed. */
export function OperationStatus({
  state,
  onCancel,
  connectionId,
  doneText,
}: {
  state: TableOperationPhase;
  onCancel(): void;
  connectionId: string;
  doneText: string;
}) {
  if (state.phase === 'running')
    return (
      <OperationProgress
        requestId={state.requestId}
        label="Waiting for DynamoDB"
        starting="Sending…"
        numbers={noNumbers}
        cancelLabel="Stop waiting"
        onCancel={onCancel}
      />
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
