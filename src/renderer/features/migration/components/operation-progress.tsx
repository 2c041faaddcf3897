import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { useOperation } from '../../operations/store';

/** Progress of a running operation: bar (when the total is known), the numbers, and Cancel. */
export function OperationProgress({ requestId, label }: { requestId: string; label: string }) {
  const operation = useOperation(requestId);
  const progress = operation?.progress;
  const fraction = progress?.fraction;
  return (
    <div className="mig-progress" aria-live="polite">
      <div className="mig-progress-row">
        <strong>{label}</strong>
        <span className="muted">
          {fraction !== undefined ? `${Math.round(fraction * 100)}% · ` : ''}
          {progress?.message ?? 'Starting…'}
        </span>
        <span className="toolbar-spacer" />
        <Button size="sm" variant="danger" onClick={() => void call('ops:cancel', { requestId })}>
          Cancel
        </Button>
      </div>
      <div
        className={`progress-bar${fraction === undefined ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction !== undefined ? Math.round(fraction * 100) : undefined}
      >
        <span style={fraction !== undefined ? { width: `${Math.max(2, fraction * 100)}%` } : undefined} />
      </div>
      {progress ? (
        <p className="mig-progress-stats">
          {progress.items.toLocaleString('en-US')} items · {progress.consumedCapacity.toLocaleString('en-US')}{' '}
          capacity units
        </p>
      ) : null}
    </div>
  );
}
