import type { Progress } from '../../../../shared/ipc';
import type { OperationChannel, OperationDone } from '../../../../shared/ipc/contract';
import { doneValueOf, useOperation } from '../store';
import { ErrorMessage } from '../../../ui/error-message';
import { OperationProgress } from './operation-progress';

/** Progress of a long write (bulk, export, import) with cancel, and how it ended. */
export function OperationStatus<C extends OperationChannel>({
  channel,
  requestId,
  connectionId,
  label,
  render,
}: {
  /** The channel that started the work: its done value is checked against the contract. */
  channel: C;
  requestId: string;
  connectionId?: string;
  /** What the work is, when the channel alone does not say (an import's dry run writes nothing). */
  label?: string;
  render(value: OperationDone<C>): React.ReactNode;
}) {
  const operation = useOperation(requestId);
  const latest = operation?.latest;
  if (!operation?.isFinished)
    return <OperationProgress requestId={requestId} label={label ?? labelOf(channel)} numbers={processed} />;
  if (latest?.type === 'error') return <ErrorMessage error={latest.error} connectionId={connectionId} />;
  return (
    <div className="operation-status" role="status">
      {latest?.type === 'cancelled' ? <p>Cancelled. What was done before stays done.</p> : null}
      {latest?.type === 'done' ? <Done value={doneValueOf(channel, latest.value)} render={render} /> : null}
    </div>
  );
}

/** What the long write is doing, as its progress says it. */
function labelOf(channel: OperationChannel): string {
  if (channel === 'transfer:import' || channel === 'transfer:resumeImport') return 'Importing';
  if (channel === 'bulk:start') return 'Applying';
  if (channel === 'journal:undo') return 'Undoing';
  return channel.startsWith('transfer:') ? 'Exporting' : 'Working';
}

const processed = (progress: Progress): string[] => [`${progress.items.toLocaleString('en-US')} processed`];

function Done<T>({ value, render }: { value: T | undefined; render(value: T): React.ReactNode }) {
  return value === undefined ? <p>Done.</p> : render(value);
}
