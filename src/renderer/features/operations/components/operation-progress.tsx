import type { Progress } from '../../../../shared/ipc';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { countOf, formatCount } from '../../../ui/format';
import { useOperation } from '../store';
import './operation-progress.css';

/** The numbers most long reads report: items, pages and read capacity, and the rate when known. */
export function readNumbers(progress: Progress): string[] {
  // Athena's progress (and a read before its first page) has no DynamoDB pages to count.
  if (progress.pages === 0) return progress.items > 0 ? [countOf(progress.items, 'item')] : [];
  return [
    countOf(progress.items, 'item'),
    countOf(progress.pages, 'page'),
    `${progress.consumedCapacity.toLocaleString('en-US')} RCU`,
    ...(progress.perSecond !== undefined ? [`${formatCount(Math.round(progress.perSecond))} items/s`] : []),
  ];
}

/**
 * The one progress view of a running operation, by requestId: its label, a bar (determinate when
 * the operation knows its fraction, moving otherwise), a polite live region with its own message
 * and numbers, and Cancel (ops:cancel unless the feature cancels its own way).
 */
export function OperationProgress({
  requestId,
  label,
  numbers = readNumbers,
  cancelLabel = 'Cancel',
  onCancel,
  isCompact = false,
  starting = 'Starting…',
}: {
  requestId: string;
  /** What the work is ("Scanning"): the bar's and the group's accessible name. */
  label: string;
  /** What the numbers are called for this work; the default counts items, pages and RCU. */
  numbers?: (progress: Progress) => string[];
  cancelLabel?: string;
  onCancel?: () => void;
  /** One inline row (the SQL toolbar) instead of label and numbers above a full-width bar. */
  isCompact?: boolean;
  /** Said before the first progress event. */
  starting?: string;
}) {
  const operation = useOperation(requestId);
  const progress = operation?.progress;
  const fraction = progress?.fraction;
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100);
  const parts = [
    progress?.message ?? starting,
    ...(percent !== undefined ? [`${percent}%`] : []),
    ...(progress ? numbers(progress) : []),
  ];
  const cancel = onCancel ?? (() => void call('ops:cancel', { requestId }));
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
        {parts.join(' · ')}
      </p>
      <Button size="sm" variant="danger" onClick={cancel}>
        {cancelLabel}
      </Button>
    </div>
  );
}
