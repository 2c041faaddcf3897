import { useState } from 'react';
import type { Connection, TableSummary } from '../../../../../shared/ipc';
import { Button } from '../../../../ui/button';
import { ConfirmTableInput } from '../../../../ui/confirm-table-input';
import { ErrorMessage } from '../../../../ui/error-message';
import { useLongWork } from '../../../operations/use-long-work';
import { tableSetChanged } from '../../../tables/table-set';
import { showTableDeleted } from '../../../workspace/hooks';

/**
 * Deleting the table: refused while deletion protection is on (turned off above, as its own
 * change), the name typed, and on a production connection a second confirmation.
 */
export function DeleteTable({ connection, summary }: { connection: Connection; summary: TableSummary }) {
  const [typed, setTyped] = useState('');
  const [isProductionConfirmed, setIsProductionConfirmed] = useState(false);
  // What a deleted table changes beyond this view: the table lists and SQL's catalog, its tab
  // closes and the workspace says it is gone; a follow-up, since the user may switch tab before
  // main answers.
  const work = useLongWork('tables:delete', {
    prefix: 'delete',
    followUp: (ending) => {
      if (ending.type !== 'done') return;
      tableSetChanged(connection.id);
      showTableDeleted(connection.id, summary.name);
    },
  });
  const error = work.ending?.type === 'failed' ? work.ending.error : undefined;

  if (summary.deletionProtection)
    return (
      <p className="notice small" role="note">
        Deletion protection is on, so {summary.name} cannot be deleted. Turn it off first with What to change
        → Deletion protection.
      </p>
    );
  const isReady = typed === summary.name && (!connection.isProduction || isProductionConfirmed);
  const remove = (): void => {
    void work.start({
      connectionId: connection.id,
      table: summary.name,
      confirmTable: typed,
      confirmProduction: connection.isProduction ? isProductionConfirmed : undefined,
    });
  };
  return (
    <div className="delete-table" role="group" aria-label="Delete table">
      <p className="small">
        Deleting {summary.name} removes it and every item in it, its indexes and its stream; it cannot be
        undone.
      </p>
      <div className="tag-row field-row">
        <label className="labelled-field confirm-field">
          <span className="field-label">Table name, to confirm</span>
          <ConfirmTableInput confirms="deleting it" table={summary.name} value={typed} onChange={setTyped} />
        </label>
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
        <Button variant="danger" disabled={!isReady} isBusy={work.isRunning} onClick={remove}>
          Delete table
        </Button>
      </div>
      {work.isRunning ? (
        <p className="small" aria-live="polite">
          {work.progress?.message ?? 'Deleting…'}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} connectionId={connection.id} compact /> : null}
    </div>
  );
}
