import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import type { UndoReport } from '../../../../shared/ipc/journal';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { OperationStatus } from '../../operations/components/operation-report';
import { startLongWork } from '../../operations/long-work';
import { UndoReportView, type LaterEntry } from './undo-report';
import '../journal.css';

/** Starts the undo from elsewhere: a shortcut (Ctrl+Z after a save in the item editor). */
/** Redo's tooltip, in History and after an undo here: what undoing an undo does. */
export const redoTitle = 'Write it again: each item only while it is still exactly what the undo left';

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
  /**
   * After a whole undo, Redo in place (undoing the undo's own entry, as History's Redo does), and
   * after a whole redo, Undo again: for an offer shown once, beside the write (the commit's toast,
   * the editor's save). History lists the undo's entry itself and offers the next step there.
   */
  isRedoOffered?: boolean;
  ref?: Ref<UndoEntryHandle>;
}

type Verb = 'Undo' | 'Redo';

/** An Undo button for one journal entry, then its progress, cancel and report in place. */
export function UndoEntry({
  connection,
  entryId,
  label,
  title,
  keys,
  verb = 'Undo',
  isRedoOffered = false,
  ref,
}: UndoEntryProps) {
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const [first, setFirst] = useState<LaterEntry>();
  // What the last run was (its report says it), and what the button after its report does next.
  const [ran, setRan] = useState<Verb>(verb);
  const [next, setNext] = useState<{ entryId: string; verb: Verb }>();
  const box = useRef<HTMLDivElement>(null);
  // Only a whole undo is redone (History's rule, history-offers.ts): one that left items alone
  // or was cancelled is offered again by its report or by History.
  const offerNext = (done: Verb) => (report?: UndoReport) => {
    if (!isRedoOffered || !report || report.conflicts + report.failed > 0) return;
    if (done === 'Undo' && report.journalId) setNext({ entryId: report.journalId, verb: 'Redo' });
    else if (done === 'Redo') setNext({ entryId, verb: 'Undo' });
  };
  // The report is drawn from the operations store by requestId; this follows only to undo again.
  const undo = (id: string, onDone?: (report?: UndoReport) => void) => {
    setError(undefined);
    const work = startLongWork(
      'journal:undo',
      { connectionId: connection.id, entryId: id },
      {
        prefix: 'undo',
        onEnd: (ending) => {
          if (ending.type === 'done') onDone?.(ending.value);
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
    setNext(undefined);
    setRan(verb);
    undo(entryId, offerNext(verb));
  };
  const runNext = (step: { entryId: string; verb: Verb }) => {
    setFirst(undefined);
    setNext(undefined);
    setRan(step.verb);
    undo(step.entryId, offerNext(step.verb));
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
    undo(later.id, () => start());
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
              verb={ran}
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
      {next ? (
        <Button
          size="sm"
          aria-label={next.verb === 'Redo' ? label.replace(/^Undo\b/, 'Redo') : label}
          disabled={connection.readOnly}
          title={next.verb === 'Redo' ? redoTitle : title}
          onClick={(event) => {
            const hadFocus = event.currentTarget === document.activeElement;
            runNext(next);
            if (hadFocus) box.current?.focus();
          }}
        >
          {next.verb}
        </Button>
      ) : null}
      {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
    </div>
  );
}
