import { useCallback, useState } from 'react';
import { changeConsequence, type TableChange } from '../../../../shared/dynamo/table-change';
import type { Connection, TableSummary } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { OperationStatus } from '../../tables/admin/operation-status';
import { useTableOperation } from '../../tables/admin/use-table-operation';
import { useTablesStore } from '../../tables/store';

/** The view type that shows what each write changed, as the Overview's change form offers first. */
const turnOn: TableChange = { kind: 'stream', enabled: true, viewType: 'NEW_AND_OLD_IMAGES' };

/**
 * The Stream view of a table without a stream: the change that turns one on, offered where it is
 * wanted, with what it does said before it is sent (the Overview's Change → Stream, as one
 * button). It goes through tables:update like every table change; main refuses it on a read-only
 * connection, and the button is not offered there.
 */
export function TurnOnStream({ connection, summary }: { connection: Connection; summary: TableSummary }) {
  const [isConfirming, setIsConfirming] = useState(false);
  const reloadDescription = useTablesStore((state) => state.loadDescription);
  const reloadList = useTablesStore((state) => state.loadList);
  // The description read again shows the stream, and this view becomes the tail.
  const onDone = useCallback(() => {
    void reloadDescription(connection.id, summary.name);
    void reloadList(connection.id);
  }, [reloadDescription, reloadList, connection.id, summary.name]);
  const operation = useTableOperation(onDone);
  const { state } = operation;
  const isRunning = state.phase === 'running';

  return (
    <div className="turn-on-stream" role="group" aria-label="Turn on the stream">
      <p>Streams are off for {summary.name}, so there is nothing to follow.</p>
      {connection.readOnly ? (
        <p className="small muted">
          This connection is read-only, so DynoTable cannot turn the stream on through it.
        </p>
      ) : isConfirming ? (
        <>
          <p className="small">
            <strong>What this does: </strong>
            {changeConsequence(turnOn, summary)}
          </p>
          <div className="turn-on-stream-actions">
            <OperationStatus
              state={state}
              onCancel={operation.cancel}
              connectionId={connection.id}
              doneText="Turned on."
            />
            <span className="toolbar-spacer" />
            {isRunning ? null : (
              <Button
                onClick={() => {
                  setIsConfirming(false);
                  operation.reset();
                }}
              >
                Cancel
              </Button>
            )}
            <Button
              variant="primary"
              autoFocus
              isBusy={isRunning}
              disabled={isRunning}
              onClick={() =>
                void operation.start({
                  channel: 'tables:update',
                  input: { connectionId: connection.id, table: summary.name, change: turnOn },
                })
              }
            >
              Turn on stream
            </Button>
          </div>
        </>
      ) : (
        <div className="turn-on-stream-actions">
          <Button variant="primary" onClick={() => setIsConfirming(true)}>
            Turn on stream…
          </Button>
          <span className="small muted">
            Records every write for 24 hours, old and new item side by side.
          </span>
        </div>
      )}
    </div>
  );
}
