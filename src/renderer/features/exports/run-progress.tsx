import type { Progress } from '../../../shared/ipc';
import { call } from '../../ipc/client';
import { Button } from '../../ui/button';
import type { Run } from './use-run';

/** The progress line of a running export, import or opening, with a way to stop following it. */
export function RunProgress({
  run,
  progress,
  stopLabel,
}: {
  run: Run;
  progress?: Progress;
  stopLabel: string;
}) {
  const fraction = progress?.fraction;
  return (
    <div className="exports-progress" role="status" aria-live="polite">
      <p>
        <strong>{run.title}</strong> · {progress?.message ?? 'Starting…'}
        {progress && progress.items > 0 ? ` · ${progress.items.toLocaleString('en-US')} items` : ''}
      </p>
      <span
        className={fraction === undefined ? 'progress-bar is-indeterminate' : 'progress-bar'}
        aria-hidden="true"
      >
        <span style={fraction === undefined ? undefined : { width: `${Math.round(fraction * 100)}%` }} />
      </span>
      <Button size="sm" onClick={() => void call('ops:cancel', { requestId: run.requestId })}>
        {stopLabel}
      </Button>
    </div>
  );
}
