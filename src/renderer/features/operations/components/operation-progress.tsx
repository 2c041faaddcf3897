import type { Progress } from '../../../../shared/ipc';
import { formatSeconds } from '../../../../shared/dynamo/purge-estimate';
import { call } from '../../../ipc/client';
import { countOf, formatCount } from '../../../ui/format';
import { ProgressView } from '../../../ui/progress';
import { useOperation } from '../store';

/** The numbers most long reads report: items, pages and read capacity, and the rate when known. */
export function readNumbers(progress: Progress): string[] {
  // Athena's progress (and a read before its first page) has no DynamoDB pages to count.
  if (progress.pages === 0) return progress.items > 0 ? [countOf(progress.items, 'item')] : [];
  return [
    countOf(progress.items, 'item'),
    countOf(progress.pages, 'page'),
    `${progress.consumedCapacity.toLocaleString('en-US')} RCU`,
    ...(progress.perSecond !== undefined ? [`${formatCount(Math.round(progress.perSecond))} items/s`] : []),
    ...timeLeft(progress),
  ];
}

/** For work whose own message says all there is to count. */
export const noNumbers = (): string[] => [];

/** For a read whose own message counts items and rates: what it has cost so far. */
export function readCost(progress: Progress): string[] {
  return [`${progress.consumedCapacity.toLocaleString('en-US')} RCU in all`];
}

/** "about 2 min left" when the operation estimates it. */
export function timeLeft(progress: Progress): string[] {
  return progress.etaSeconds !== undefined ? [`about ${formatSeconds(progress.etaSeconds)} left`] : [];
}

/**
 * The one progress view of a running operation, by requestId (ui/progress.tsx draws it): its
 * label, a bar (determinate when the operation knows its fraction, moving otherwise), a polite
 * live region with its own message and numbers, and Cancel (ops:cancel unless the feature
 * cancels its own way).
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
  const progress = useOperation(requestId)?.progress;
  const fraction = progress?.fraction;
  const parts = [
    ...(fraction !== undefined ? [`${Math.round(fraction * 100)}%`] : []),
    progress?.message ?? starting,
    ...(progress ? numbers(progress) : []),
  ];
  return (
    <ProgressView
      label={label}
      fraction={fraction}
      text={parts.join(' · ')}
      cancelLabel={cancelLabel}
      onCancel={onCancel ?? (() => void call('ops:cancel', { requestId }))}
      isCompact={isCompact}
    />
  );
}
