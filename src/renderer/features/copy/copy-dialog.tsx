import { useEffect, useState } from 'react';
import { splitConnectionId } from '../../../shared/dynamo/regions';
import type { AppError, Connection } from '../../../shared/ipc';
import type { ConflictPolicy, CopyReport, CopyStartInput } from '../../../shared/ipc/copy';
import type { ReadSpec } from '../../../shared/ipc/query';
import { call } from '../../ipc/client';
import { Button } from '../../ui/button';
import { Check } from '../../ui/check';
import { Dialog, DialogActions } from '../../ui/dialog';
import { ErrorMessage } from '../../ui/error-message';
import { Select } from '../../ui/select';
import { TextInput } from '../../ui/text-input';
import { useConnectionsStore } from '../connections/store';
import { useLongWork } from '../operations/use-long-work';
import { OperationProgress, timeLeft } from '../operations/components/operation-progress';
import { tableSetChanged } from '../tables/table-set';
import { tableKeyIn, useWorkspaceStore } from '../workspace/store';
import { RateField, rateOf, type RateUnit } from './copy-fields';
import { CopyReportView } from './copy-report';
import { UnfinishedCopies } from './unfinished-copies';
import './copy.css';
import { FormRow, RowField } from '../../ui/form-row';
import { PARALLEL_READERS, SEGMENTS_HELP } from '../../ui/scan-words';

export interface CopyDialogProps {
  connection: Connection;
  table: string;
  /** The Items tab's result set and the read that filled it, when there is one. */
  resultSet?: { id: string; total: number; spec?: ReadSpec };
  /** Which source the dialog starts with. */
  initialSource?: SourceChoice;
  onClose(): void;
}

type SourceChoice = 'table' | 'read' | 'result' | 'view';
type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; requestId: string; copyId: string }
  | { phase: 'stopped'; copyId: string; error?: AppError }
  | { phase: 'done'; report: CopyReport };

const policies = ['overwrite', 'skip', 'newer'] as const;
const policyWords: Record<(typeof policies)[number], string> = {
  overwrite: 'Overwrite existing items',
  skip: 'Skip existing items',
  newer: 'Overwrite only when the source is newer',
};

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** "Copy to…": a table, the current read or the current result set into a table on any connection. */
export function CopyDialog({
  connection,
  table,
  resultSet,
  initialSource = 'table',
  onClose,
}: CopyDialogProps) {
  const connections = useConnectionsStore((s) => s.connections);
  const [source, setSource] = useState<SourceChoice>(initialSource);
  const [targetId, setTargetId] = useState(connection.id);
  const [targetTable, setTargetTable] = useState(`${table}-copy`);
  const [create, setCreate] = useState(true);
  const [policy, setPolicy] = useState<(typeof policies)[number]>('overwrite');
  const [newerBy, setNewerBy] = useState('updatedAt');
  const [prefixFrom, setPrefixFrom] = useState('');
  const [prefixTo, setPrefixTo] = useState('');
  const [drop, setDrop] = useState('');
  const [segments, setSegments] = useState('4');
  const [writeRate, setWriteRate] = useState('');
  const [writeUnit, setWriteUnit] = useState<RateUnit>('items/s');
  const [readRate, setReadRate] = useState('');
  const [readUnit, setReadUnit] = useState<RateUnit>('items/s');
  const [verify, setVerify] = useState(true);
  const [views, setViews] = useState<string[]>([]);
  const [view, setView] = useState('');
  const [state, setState] = useState<Phase>({ phase: 'idle' });
  const [error, setError] = useState<AppError>();
  // copy:start and copy:resume end alike, with a copyReport. Updates go through the previous
  // phase, since a quick copy's ending follows its start answer at once.
  const work = useLongWork('copy:start', {
    prefix: 'copy',
    // The target's table list learns of a table the copy made, also when the dialog was closed
    // while it ran (Close says the copy goes on); a cancelled or failed copy may have made it too.
    followUp: (ending) => {
      if (!(ending.type === 'failed' && ending.isRefused)) tableSetChanged(targetId);
    },
    onStarted: (answer, requestId) => setState({ phase: 'running', requestId, copyId: answer.copyId }),
    onEnd: (ending) => {
      if (ending.type === 'failed' && ending.isRefused) setError(ending.error);
      else if (ending.type === 'done' && ending.value) setState({ phase: 'done', report: ending.value });
      else if (ending.type !== 'done') {
        const error = ending.type === 'failed' ? ending.error : undefined;
        setState((now) => (now.phase === 'running' ? { phase: 'stopped', copyId: now.copyId, error } : now));
      }
    },
  });
  const target = connections.find((c) => c.id === targetId);
  const ids = connections.map((c) => c.id);

  useEffect(() => {
    void call('sql:views', { connectionId: connection.id }).then((answer) => {
      if (!answer.ok) return;
      const names = answer.value.filter((v) => v.table === table).map((v) => v.name);
      setViews(names);
      setView((current) => current || (names[0] ?? ''));
    });
  }, [connection.id, table]);

  const conflict = (): ConflictPolicy =>
    policy === 'newer' ? { policy, attribute: newerBy.trim() } : { policy };

  const start = async (): Promise<void> => {
    setError(undefined);
    const input: Omit<CopyStartInput, 'requestId'> = {
      source:
        source === 'result' && resultSet
          ? { connectionId: connection.id, table, resultSetId: resultSet.id }
          : source === 'view' && view
            ? { connectionId: connection.id, table, view }
            : {
                connectionId: connection.id,
                table,
                ...(source === 'read' && resultSet?.spec ? { spec: resultSet.spec } : {}),
              },
      target: { connectionId: targetId, table: targetTable.trim(), create, includeTags: false },
      mapping: {
        prefixes: prefixFrom ? [{ from: prefixFrom, to: prefixTo }] : [],
        drop: list(drop),
        rename: [],
      },
      conflict: conflict(),
      segments: Math.min(64, Math.max(1, Number(segments) || 4)),
      ...rateOf(readRate, readUnit, 'readRate', 'readShare'),
      ...rateOf(writeRate, writeUnit, 'writeRate', 'writeShare'),
      verify,
    };
    await work.start(input);
  };

  const resume = async (copyId: string): Promise<void> => {
    setError(undefined);
    await work.start((requestId) => call('copy:resume', { requestId, copyId }));
  };

  const isBusy = state.phase === 'running';
  const canStart = state.phase === 'idle' && targetTable.trim() !== '' && target?.readOnly !== true;
  const progress = work.progress;
  return (
    <Dialog
      title={`Copy ${table} to…`}
      width="lg"
      onClose={onClose}
      onEnter={canStart ? () => void start() : undefined}
      footer={
        <DialogActions
          closeLabel={isBusy ? 'Close (the copy goes on)' : state.phase === 'idle' ? 'Cancel' : 'Close'}
          onClose={onClose}
          primary={
            state.phase === 'stopped' ? (
              <Button variant="primary" onClick={() => void resume(state.copyId)}>
                Resume copy
              </Button>
            ) : state.phase === 'done' ? (
              <OpenCopiedTable report={state.report} connection={connection} onClose={onClose} />
            ) : (
              <Button
                variant="primary"
                isBusy={isBusy}
                disabled={!canStart && !isBusy}
                onClick={() => void start()}
              >
                Copy
              </Button>
            )
          }
        />
      }
    >
      <div className="copy-form">
        <UnfinishedCopies
          connectionId={connection.id}
          table={table}
          isBusy={isBusy}
          current={state.phase === 'stopped' ? state.copyId : undefined}
          onResume={(copyId) => void resume(copyId)}
        />
        <fieldset className="form-group" disabled={isBusy}>
          <legend>Copy</legend>
          <Check type="radio" checked={source === 'table'} onChange={() => setSource('table')}>
            The whole table
          </Check>
          <Check
            type="radio"
            disabled={!resultSet?.spec}
            checked={source === 'read'}
            onChange={() => setSource('read')}
          >
            Every item the current read matches (all pages)
          </Check>
          <Check
            type="radio"
            disabled={!resultSet}
            checked={source === 'result'}
            onChange={() => setSource('result')}
          >
            The current result set{resultSet ? ` (${resultSet.total.toLocaleString('en-US')} rows)` : ''}
          </Check>
          <FormRow>
            <Check
              type="radio"
              disabled={views.length === 0}
              checked={source === 'view'}
              onChange={() => setSource('view')}
            >
              {views.length === 0 ? 'A saved SQL view (none saved for this table)' : 'The saved SQL view'}
            </Check>
            {views.length > 0 ? (
              <Select
                label="SQL view to copy"
                value={view}
                options={views}
                onChange={(name) => {
                  setView(name);
                  setSource('view');
                }}
              />
            ) : null}
          </FormRow>
        </fieldset>

        <fieldset className="form-group" disabled={isBusy}>
          <legend>To</legend>
          <FormRow>
            <RowField caption="Connection">
              <Select
                label="Target connection"
                value={targetId}
                options={ids}
                labelOf={(id) => {
                  const c = connections.find((x) => x.id === id);
                  return c ? `${c.label}${c.readOnly ? ' (read-only)' : ''}` : id;
                }}
                onChange={setTargetId}
              />
            </RowField>
            <RowField caption="Table" grow>
              <TextInput label="Target table" value={targetTable} onChange={setTargetTable} />
            </RowField>
          </FormRow>
          {target?.readOnly ? (
            <p className="copy-warning" role="note">
              “{target.label}” is read-only: DynoTable writes nothing through it.
            </p>
          ) : null}
          <Check checked={create} onChange={setCreate}>
            Create the table from {table}’s definition (keys, indexes, TTL, billing) if it does not exist
          </Check>
        </fieldset>

        <fieldset className="form-group" disabled={isBusy}>
          <legend>When the item exists in the target</legend>
          <FormRow>
            {policies.map((p) => (
              <Check key={p} type="radio" checked={policy === p} onChange={() => setPolicy(p)}>
                {policyWords[p]}
              </Check>
            ))}
            {policy === 'newer' ? (
              <TextInput
                label="Compare by attribute"
                value={newerBy}
                onChange={setNewerBy}
                placeholder="updatedAt"
              />
            ) : null}
          </FormRow>
        </fieldset>

        <details className="form-group">
          <summary>Key mapping, speed and checks</summary>
          <fieldset className="copy-inner" disabled={isBusy}>
            <FormRow>
              <RowField caption="Rewrite key prefix">
                <TextInput
                  label="Key prefix to rewrite"
                  value={prefixFrom}
                  onChange={setPrefixFrom}
                  placeholder="TENANT#a"
                />
              </RowField>
              <RowField caption="to">
                <TextInput
                  label="New key prefix"
                  value={prefixTo}
                  onChange={setPrefixTo}
                  placeholder="TENANT#b"
                />
              </RowField>
              <RowField caption="Drop attributes (comma-separated)" grow>
                <TextInput
                  label="Attributes to drop"
                  value={drop}
                  onChange={setDrop}
                  placeholder="ssn, email"
                />
              </RowField>
            </FormRow>
            <FormRow>
              <RowField caption={PARALLEL_READERS}>
                <TextInput
                  title={SEGMENTS_HELP}
                  label={PARALLEL_READERS}
                  inputMode="numeric"
                  value={segments}
                  onChange={setSegments}
                />
              </RowField>
              <RateField
                side="Read"
                value={readRate}
                unit={readUnit}
                onValue={setReadRate}
                onUnit={setReadUnit}
              />
              <RateField
                side="Write"
                value={writeRate}
                unit={writeUnit}
                onValue={setWriteRate}
                onUnit={setWriteUnit}
              />
              <Check checked={verify} onChange={setVerify}>
                Verify at the end (counts and checksums of both sides)
              </Check>
            </FormRow>
          </fieldset>
        </details>

        {error ? <ErrorMessage compact error={error} connectionId={targetId} /> : null}

        {state.phase === 'running' ? (
          <OperationProgress
            requestId={state.requestId}
            label={progress?.copy?.phase === 'verifying' ? 'Verifying both sides' : 'Copying'}
            starting="Preparing the target…"
            numbers={timeLeft}
            cancelLabel="Cancel copy"
          />
        ) : null}
        {state.phase === 'stopped' ? (
          <div className="copy-progress" role="status">
            {state.error ? (
              <ErrorMessage compact error={state.error} connectionId={targetId} />
            ) : (
              <p>Stopped. What was copied stays copied; Resume goes on from the checkpoint.</p>
            )}
          </div>
        ) : null}
        {state.phase === 'done' ? <CopyReportView report={state.report} /> : null}
      </div>
    </Dialog>
  );
}

/**
 * After a copy, the target table one click away, as after Create table; only when it is on this
 * connection (in any of its regions), since the workspace holds one connection's tables.
 */
function OpenCopiedTable({
  report,
  connection,
  onClose,
}: {
  report: CopyReport;
  connection: Connection;
  onClose(): void;
}) {
  const { connectionId, table } = report.target;
  if (splitConnectionId(connectionId).connectionId !== splitConnectionId(connection.id).connectionId)
    return null;
  return (
    <Button
      variant="primary"
      onClick={() => {
        useWorkspaceStore.getState().openTable(tableKeyIn(connectionId, table));
        onClose();
      }}
    >
      Open {table}
    </Button>
  );
}
