import { useEffect, useState } from 'react';
import type { AppError, Connection, TableSummary } from '../../../../../shared/ipc';
import { call, newRequestId } from '../../../../ipc/client';
import { Button } from '../../../../ui/button';
import { ConfirmTableInput } from '../../../../ui/confirm-table-input';
import { ErrorMessage } from '../../../../ui/error-message';
import { onOperation, useOperation } from '../../../operations/store';
import { tableSetChanged } from '../../../tables/table-set';
import { tableKeyIn, useWorkspaceStore } from '../../../workspace/store';

/**
 * Deleting the table: refused while deletion protection is on (turned off above, as its own
 * change), the name typed, and on a production connection a second confirmation.
 */
export function DeleteTable({ connection, summary }: { connection: Connection; summary: TableSummary }) {
  const [typed, setTyped] = useState('');
  const [isProductionConfirmed, setIsProductionConfirmed] = useState(false);
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const operation = useOperation(requestId);
  const closeTable = useWorkspaceStore((state) => state.closeTable);

  useEffect(() => {
    if (!requestId) return undefined;
    return onOperation(requestId, (event) => {
      if (event.type === 'done') {
        tableSetChanged(connection.id);
        closeTable(tableKeyIn(connection.id, summary.name));
      } else if (event.type === 'error') setError(event.error);
      if (event.type !== 'progress') setRequestId(undefined);
    });
  }, [requestId, closeTable, connection.id, summary.name]);

  if (summary.deletionProtection)
    return (
      <p className="notice small" role="note">
        Deletion protection is on, so {summary.name} cannot be deleted. Turn it off first with What to change
        → Deletion protection.
      </p>
    );
  const isReady = typed === summary.name && (!connection.isProduction || isProductionConfirmed);
  const remove = async (): Promise<void> => {
    const id = newRequestId('delete');
    setError(undefined);
    setRequestId(id);
    const envelope = await call('tables:delete', {
      connectionId: connection.id,
      table: summary.name,
      requestId: id,
      confirmTable: typed,
      confirmProduction: connection.isProduction ? isProductionConfirmed : undefined,
    });
    if (!envelope.ok) {
      setRequestId(undefined);
      setError(envelope.error);
    }
  };
  return (
    <div className="delete-table" role="group" aria-label="Delete table">
      <p className="small">
        Deleting {summary.name} removes it and every item in it, its indexes and its stream; it cannot be
        undone.
      </p>
      <div className="tag-row">
        <ConfirmTableInput table={summary.name} value={typed} onChange={setTyped} />
        {connection.isProduction ? (
          <label className="check-label">
            <input
              type="checkbox"
              checked={isProductionConfirmed}
              onChange={(event) => setIsProductionConfirmed(event.target.checked)}
            />
            Yes, delete it from the production connection {connection.label}
          </label>
        ) : null}
        <Button
          variant="danger"
          disabled={!isReady}
          isBusy={requestId !== undefined}
          onClick={() => void remove()}
        >
          Delete table
        </Button>
      </div>
      {requestId ? (
        <p className="small" aria-live="polite">
          {operation?.progress?.message ?? 'Deleting…'}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} connectionId={connection.id} compact /> : null}
    </div>
  );
}
