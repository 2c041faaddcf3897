import { useState } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import type { UndoReport } from '../../../../shared/ipc/journal';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { OperationStatus } from '../../items/components/operation-report';
import { UndoReportView } from './undo-report';
import '../journal.css';

export interface UndoEntryProps {
  connection: Connection;
  entryId: string;
  /** Names what is undone, for screen readers: "Undo this commit". */
  label: string;
}

/** An Undo button for one journal entry, then its progress, cancel and report in place. */
export function UndoEntry({ connection, entryId, label }: UndoEntryProps) {
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const start = () => {
    const id = newRequestId('undo');
    setRequestId(id);
    setError(undefined);
    void call('journal:undo', { connectionId: connection.id, entryId, requestId: id }).then((r) => {
      if (!r.ok) {
        setError(r.error);
        setRequestId(undefined);
      }
    });
  };
  return (
    <div className="undo-entry">
      {requestId ? (
        <OperationStatus
          requestId={requestId}
          connectionId={connection.id}
          render={(value) => <UndoReportView report={value as UndoReport} />}
        />
      ) : (
        <Button
          size="sm"
          aria-label={label}
          disabled={connection.readOnly}
          title={connection.readOnly ? 'This connection is read-only.' : undefined}
          onClick={start}
        >
          Undo
        </Button>
      )}
      {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
    </div>
  );
}
