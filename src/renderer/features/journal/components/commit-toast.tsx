import { useEffect, useRef, useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { dismissTimer, type DismissTimer } from '../dismiss-timer';
import { UndoEntry } from './undo-entry';

/** How long the confirmation of a write stays, unless the user is on it. */
export const TOAST_MS = 10_000;

export interface CommitToastProps {
  connection: Connection;
  /** The sentence that announces the write. */
  message: string;
  /** The journal entry of exactly that write: Undo undoes it, whatever was written since. */
  journalId?: string;
  onDismiss(): void;
}

/**
 * "Committed… [Undo]": goes away by itself after TOAST_MS (paused while hovered or focused), or
 * with its ×. Once Undo is pressed it stays to show the undo's progress and report.
 */
export function CommitToast({ connection, message, journalId, onDismiss }: CommitToastProps) {
  const timer = useRef<DismissTimer | undefined>(undefined);
  const [isUndoing, setUndoing] = useState(false);
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  }, [onDismiss]);
  useEffect(() => {
    timer.current = dismissTimer(TOAST_MS, () => dismiss.current());
    return () => timer.current?.cancel();
  }, [journalId, message]);
  return (
    <div
      className="commit-done"
      onPointerEnter={() => timer.current?.pause()}
      onPointerLeave={() => timer.current?.resume()}
      onFocus={() => timer.current?.pause()}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) timer.current?.resume();
      }}
      onClickCapture={(event) => {
        if ((event.target as HTMLElement).closest('.undo-entry')) {
          timer.current?.cancel();
          setUndoing(true);
        }
      }}
    >
      <p className="commit-confirmation" role="status">
        {message}
      </p>
      {journalId ? (
        <UndoEntry connection={connection} entryId={journalId} label="Undo this commit" isRedoOffered />
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        aria-label={isUndoing ? 'Close the undo report' : 'Dismiss'}
        onClick={onDismiss}
      >
        ×
      </Button>
    </div>
  );
}
