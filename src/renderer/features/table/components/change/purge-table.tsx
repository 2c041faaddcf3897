import { useEffect, useRef, useState } from 'react';
import type { AppError, Connection, TableSummary } from '../../../../../shared/ipc';
import { call } from '../../../../ipc/client';
import { Button } from '../../../../ui/button';
import { ConfirmTableInput } from '../../../../ui/confirm-table-input';
import { ErrorMessage } from '../../../../ui/error-message';
import { FieldError } from '../../../../ui/field';
import { formatCount } from '../../../../ui/format';
import { SetAsideNotices } from '../../../../ui/set-aside-notices';
import { TextInput } from '../../../../ui/text-input';
import { noNumbers, OperationProgress } from '../../../operations/components/operation-progress';
import { StoppedWork } from '../../../operations/components/stopped-work';
import { useLongWork } from '../../../operations/use-long-work';
import { useTablesStore } from '../../../tables/store';

type Estimate = { itemCount: number; readUnits: number; writeUnits: number; sentences: string[] };

/**
 * Deleting every item and keeping the table: the estimate first, the name typed (and a second
 * confirmation on production), then progress with Cancel; after a cancel, Resume starts again on
 * what is left.
 */
export function PurgeTable({ connection, summary }: { connection: Connection; summary: TableSummary }) {
  const [estimate, setEstimate] = useState<Estimate>();
  const [typed, setTyped] = useState('');
  const [isProductionConfirmed, setIsProductionConfirmed] = useState(false);
  const [rate, setRate] = useState('');
  const [error, setError] = useState<AppError>();
  const reloadDescription = useTablesStore((state) => state.loadDescription);

  useEffect(() => {
    let isCurrent = true;
    void call('tables:purgePreview', { connectionId: connection.id, table: summary.name }).then((answer) => {
      if (!isCurrent) return;
      if (answer.ok) setEstimate(answer.value);
      else setError(answer.error);
    });
    return () => {
      isCurrent = false;
    };
  }, [connection.id, summary.name, summary.itemCount]);

  const work = useLongWork('tables:purge', {
    prefix: 'purge',
    onEnd: (ending) => {
      // A finished purge is not one click away from running again.
      if (ending.type === 'done' && ending.value) setTyped('');
      if (!(ending.type === 'failed' && ending.isRefused))
        void reloadDescription(connection.id, summary.name);
    },
  });
  const ending = work.ending;
  const result = ending?.type === 'done' ? ending.value : undefined;
  const failure = ending?.type === 'failed' ? ending.error : error;

  const rateProblem =
    rate.trim() === '' || /^[1-9]\d{0,5}$/.test(rate.trim())
      ? undefined
      : 'A rate is a whole number of items per second, 1 to 100000 (or empty for no limit).';
  const isReady =
    typed === summary.name && (!connection.isProduction || isProductionConfirmed) && !rateProblem;
  /** A new purge, or (resumeJobId) one that stopped going on under its record: the same confirmations. */
  const purge = (resumeJobId?: string): void => {
    setError(undefined);
    void work.start({
      connectionId: connection.id,
      table: summary.name,
      confirmTable: typed,
      confirmProduction: connection.isProduction ? isProductionConfirmed : undefined,
      maxPerSecond: rate.trim() === '' ? undefined : Number(rate.trim()),
      ...(resumeJobId === undefined ? {} : { resumeJobId }),
    });
  };
  const { requestId, isRunning } = work;
  // Focus after Resume: the purge's progress and how it ended; after Dismiss of the last stopped
  // purge: this group, whose first words say what a purge does.
  const group = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLDivElement>(null);
  return (
    <div className="delete-table purge-table" role="group" aria-label="Purge items" ref={group} tabIndex={-1}>
      <p className="small">
        Purging deletes every item of {summary.name} and keeps the table, its ARN, stream, indexes and
        settings. It cannot be undone.
      </p>
      {estimate ? (
        <ul className="purge-estimate small" aria-label="What the purge will cost">
          {estimate.sentences.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      ) : (
        <p className="small muted">Estimating what the purge will cost…</p>
      )}
      <div className="tag-row field-row">
        <label className="labelled-field">
          <span className="field-label">Rate limit (deletes per second)</span>
          <TextInput
            className="purge-rate"
            label="Deletes per second at most"
            placeholder="no limit"
            inputMode="numeric"
            value={rate}
            disabled={isRunning}
            onChange={setRate}
          />
        </label>
        <label className="labelled-field confirm-field">
          <span className="field-label">Table name, to confirm</span>
          <ConfirmTableInput confirms="the purge" table={summary.name} value={typed} onChange={setTyped} />
        </label>
        {connection.isProduction ? (
          <label className="check-label">
            <input
              type="checkbox"
              checked={isProductionConfirmed}
              onChange={(event) => setIsProductionConfirmed(event.target.checked)}
            />
            Yes, delete every item on the production connection {connection.label}
          </label>
        ) : null}
        <Button variant="danger" disabled={!isReady || isRunning} isBusy={isRunning} onClick={() => purge()}>
          {ending?.type === 'cancelled' ? 'Resume purge' : 'Purge items'}
        </Button>
      </div>
      <FieldError message={rateProblem} />
      <StoppedWork
        connectionId={connection.id}
        table={summary.name}
        kind="purge"
        isHidden={requestId !== undefined}
        onResume={(job) => purge(job.id)}
        focusAfterResume={status}
        focusWhenEmpty={group}
        resumeBlocked={
          connection.readOnly
            ? 'This connection is read-only.'
            : isReady
              ? undefined
              : 'Type the table name above to confirm, as for a purge.'
        }
      />
      <div className="purge-status" ref={status} tabIndex={-1} role="group" aria-label="This purge">
        {requestId ? (
          // Main's message says what was deleted, failed, the rate and the time left.
          <OperationProgress
            requestId={requestId}
            label="Purging"
            numbers={noNumbers}
            cancelLabel="Cancel purge"
          />
        ) : null}
        {ending?.type === 'cancelled' ? (
          <p className="small" role="status">
            Stopped after {formatCount(ending.progress.items)} deleted. Resume purge starts again on what is
            left: deleted items are gone, so nothing is read or deleted twice.
          </p>
        ) : null}
        {result ? (
          <p className="small purge-done" role="status">
            <strong>Purged.</strong> {formatCount(result.deleted)} deleted
            {result.alreadyGone > 0 ? `, ${formatCount(result.alreadyGone)} already gone` : ''}
            {result.failed > 0 ? `, ${formatCount(result.failed)} failed` : ''};{' '}
            {result.isEmpty
              ? `${summary.name} is empty.`
              : `items remain in ${summary.name}: purge again to delete them.`}
          </p>
        ) : null}
        {result?.setAside ? <SetAsideNotices notices={result.setAside} /> : null}
        {failure ? <ErrorMessage error={failure} connectionId={connection.id} compact /> : null}
      </div>
    </div>
  );
}
