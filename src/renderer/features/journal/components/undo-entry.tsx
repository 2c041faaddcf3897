import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { OperationStatus } from '../../operations/components/operation-report';
import { startLongWork } from '../../operations/long-work';
import { UndoReportView, type LaterEntry } from './undo-report';
import '../journal.css';

/** Starts the undo from elsewhere: a shortcut (Ctrl+Z after a save in the item editor). */
export interface UndoEntryHandle {
  /** Undoes the entry, as its button does; nothing once an undo of it has started. */
  start(): void;
}

export interface UndoEntryProps {
  connection: Connection;
  entryId: string;
  /** Names what is undone, for screen readers: "Undo this commit". */
  label: string;
  /** The button's tooltip. */
  title?: string;
  /** aria-keyshortcuts of the button, when a shortcut starts it too. */
  keys?: string;
  /**
   * `Redo` where `entryId` is an undo's own entry: undoing it puts back what the undo took away,
   * the journal's one way to redo (History, on the entry that undo undid).
   */
  verb?: 'Undo' | 'Redo';
  ref?: Ref<UndoEntryHandle>;
}

/** An Undo button for one journal entry, then its progress, cancel and report in place. */
export function UndoEntry({ connection, entryId, label, title, keys, verb = 'Undo', ref }: UndoEntryProps) {
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const [first, setFirst] = useState<LaterEntry>();
  const box = useRef<HTMLDivElement>(null);
  // The report is drawn from the operations store by requestId; this follows only to undo again.
  const undo = (id: string, onDone?: () => void) => {
    setError(undefined);
    const work = startLongWork(
      'journal:undo',
      { connectionId: connection.id, entryId: id },
      {
        prefix: 'undo',
        onEnd: (ending) => {
          if (ending.type === 'done') onDone?.();
          else if (ending.type === 'failed' && ending.isRefused) {
            setError(ending.error);
            setRequestId(undefined);
          }
        },
      },
    );
    setRequestId(work.requestId);
  };
  const start = () => {
    setFirst(undefined);
    undo(entryId);
  };
  useImperativeHandle(ref, () => ({
    start: () => {
      if (requestId === undefined && !connection.readOnly) start();
    },
  }));
  // The later write first: once its undo is done, this entry's undo runs again; if it stops
  // short, its own report stays on screen.
  const undoLaterFirst = (later: LaterEntry) => {
    setFirst(later);
    undo(later.id, start);
  };
  return (
    // Focusable from code only: a pressed button gives way to the progress and report, and focus
    // waits here instead of falling to the page.
    <div className="undo-entry" ref={box} tabIndex={-1}>
      {first ? <p className="small muted">First undoing your later write: {first.reason}.</p> : null}
      {requestId ? (
        <OperationStatus
          channel="journal:undo"
          requestId={requestId}
          connectionId={connection.id}
          render={(report) => (
            <UndoReportView
              report={report}
              verb={verb}
              {...(first ? {} : { onUndoLaterFirst: undoLaterFirst })}
            />
          )}
        />
      ) : (
        <Button
          size="sm"
          aria-label={label}
          aria-keyshortcuts={keys}
          disabled={connection.readOnly}
          title={connection.readOnly ? 'This connection is read-only.' : title}
          onClick={(event) => {
            const hadFocus = event.currentTarget === document.activeElement;
            start();
            if (hadFocus) box.current?.focus();
          }}
        >
          {verb}
        </Button>
      )}
      {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
    </div>
  );
}
