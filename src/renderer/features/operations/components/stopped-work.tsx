import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { SetAsideNotice } from '../../../../shared/ipc/data-files';
import type { StoppedJob } from '../../../../shared/ipc/jobs';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { formatDate } from '../../../ui/format';
import { moveFocus } from '../../../ui/move-focus';
import { SetAsideNotices } from '../../../ui/set-aside-notices';

export interface StoppedWorkProps {
  connectionId: string;
  table: string;
  kind: StoppedJob['kind'];
  /** Hidden once such work started here: its own progress and ending say where it is. */
  isHidden: boolean;
  /** Goes on with a job main says can resume; the section that shows the list runs it. */
  onResume?: (job: StoppedJob) => void;
  /** Why Resume cannot be pressed yet (the typed name, a read-only connection), shown on the button. */
  resumeBlocked?: string | undefined;
  /**
   * Where focus goes when the pressed button leaves the screen, not to the page's body: after
   * Resume (the list hides) to where the resumed work shows, and after Dismiss of the last one
   * to the next thing to do. Dismiss of another goes to the row now in its place.
   */
  focusAfterResume?: RefObject<HTMLElement | null>;
  focusWhenEmpty?: RefObject<HTMLElement | null>;
}

const titles = { import: 'Imports', purge: 'Purges' } as const;

/**
 * Imports or purges of this table that did not finish — cancelled, failed, or cut off when
 * DynoTable closed (main keeps a record of each in the job store) — with main's sentence saying
 * where each stopped and how to go on, Resume where main says it can, and Dismiss to forget it.
 */
export function StoppedWork({
  connectionId,
  table,
  kind,
  isHidden,
  onResume,
  resumeBlocked,
  focusAfterResume,
  focusWhenEmpty,
}: StoppedWorkProps) {
  const [jobs, setJobs] = useState<StoppedJob[]>([]);
  const [error, setError] = useState<AppError>();
  // Kept across reloads: a record is set aside once, by the listing that found it.
  const [setAside, setSetAside] = useState<SetAsideNotice[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let isCurrent = true;
    void call('jobs:stopped', { connectionId }).then((answer) => {
      if (!isCurrent) return;
      if (!answer.ok) {
        setError(answer.error);
        return;
      }
      if (answer.value.setAside.length > 0) setSetAside((shown) => [...shown, ...answer.value.setAside]);
      setJobs(answer.value.jobs.filter((job) => job.kind === kind && job.table === table));
    });
    return () => {
      isCurrent = false;
    };
    // Listed again when it shows again: work resumed here has ended, and its record changed.
  }, [connectionId, table, kind, version, isHidden]);

  // The row whose Dismiss was pressed (a number), or Resume: where focus goes once the list shows
  // what the press changed (a row gone, the list hidden).
  const pressed = useRef<number | 'resume'>(undefined);
  const list = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const was = pressed.current;
    if (was === undefined || (was === 'resume' && !isHidden)) return;
    pressed.current = undefined;
    if (was === 'resume') {
      if (focusAfterResume?.current) moveFocus(focusAfterResume.current);
      return;
    }
    const rows = list.current?.querySelectorAll('li') ?? [];
    const row = rows[Math.min(was, rows.length - 1)];
    const next = row?.querySelector<HTMLElement>('button:not([disabled])') ?? focusWhenEmpty?.current;
    if (next) moveFocus(next);
  }, [jobs, isHidden, focusAfterResume, focusWhenEmpty]);

  const forget = async (id: string): Promise<void> => {
    const answer = await call('jobs:forget', { kind, id });
    setError(answer.ok ? undefined : answer.error);
    if (answer.ok) {
      pressed.current = jobs.findIndex((job) => job.id === id);
      setJobs((shown) => shown.filter((job) => job.id !== id));
    }
    setVersion((v) => v + 1);
  };

  if (isHidden || (jobs.length === 0 && !error && setAside.length === 0)) return null;
  const titleId = `stopped-${kind}-title`;
  return (
    <section className="stopped-work" aria-labelledby={titleId}>
      <h3 id={titleId} className="stopped-work-title">
        {titles[kind]} of {table} that did not finish
      </h3>
      {error ? <ErrorMessage compact error={error} connectionId={connectionId} /> : null}
      <SetAsideNotices notices={setAside} onDismiss={() => setSetAside([])} />
      <ul className="stopped-work-list" ref={list}>
        {jobs.map((job) => (
          <li key={job.id}>
            <span>
              <span className="muted">{formatDate(job.updatedAt)}:</span> {job.sentence}
            </span>
            {job.canResume && onResume ? (
              <Button
                size="sm"
                variant="primary"
                disabled={resumeBlocked !== undefined}
                title={resumeBlocked}
                onClick={() => {
                  pressed.current = 'resume';
                  onResume(job);
                }}
                aria-label={`Resume the ${kind} stopped ${formatDate(job.updatedAt)}`}
              >
                Resume
              </Button>
            ) : null}
            <Button
              size="sm"
              onClick={() => void forget(job.id)}
              aria-label={`Dismiss the ${kind} stopped ${formatDate(job.updatedAt)}`}
            >
              Dismiss
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
