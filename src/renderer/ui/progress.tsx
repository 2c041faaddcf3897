import { Button } from './button';
import { withCapacityUnits } from './capacity-unit';

/**
 * The one look of long work in progress: its label, a bar (determinate when `fraction` is known,
 * moving otherwise; role=progressbar named by the label), a polite live region with the numbers,
 * and the button that stops it. Operations use OperationProgress (features/operations), which
 * fills this from the operations store; work the browser does itself (an upload) fills it directly.
 */
export function ProgressView({
  label,
  fraction,
  text,
  cancelLabel,
  onCancel,
  isCompact = false,
}: {
  /** What the work is ("Scanning"): the bar's and the group's accessible name. */
  label: string;
  /** 0..1 when the total is known. */
  fraction?: number;
  /** The numbers, said politely as they change. */
  text: string;
  cancelLabel: string;
  onCancel(): void;
  /** One inline row (the SQL toolbar) instead of label and numbers above a full-width bar. */
  isCompact?: boolean;
}) {
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  return (
    <div className={`op-progress${isCompact ? ' is-compact' : ''}`} role="group" aria-label={label}>
      {isCompact ? null : <strong className="op-progress-label">{label}</strong>}
      <div
        className={`op-progress-bar${percent === undefined ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={percent !== undefined ? { width: `${Math.max(2, percent)}%` } : undefined} />
      </div>
      <p className="op-progress-numbers" role="status" aria-live="polite">
        {withCapacityUnits(text)}
      </p>
      <Button size="sm" variant="danger" onClick={onCancel}>
        {cancelLabel}
      </Button>
    </div>
  );
}
