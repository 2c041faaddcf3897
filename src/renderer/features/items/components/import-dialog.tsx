import { useRef, useState } from 'react';
import { needsTypedConfirmation } from '../../../../shared/dynamo/confirmation';
import type { AppError, Connection } from '../../../../shared/ipc';
import { importParts, type ImportReport, type TransferFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ChoiceGroup } from '../../../ui/choice-group';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { Dialog, DialogActions } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { TextInput } from '../../../ui/text-input';
import { formatBytes } from '../../../ui/format';
import { uploadImportFile } from '../../../ipc/upload';
import { useAppInfoStore } from '../../app-info/store';
import { FormatChoice, TYPED_FORMATS } from './format-choice';
import { extensionOf } from './table-export';
import { OperationStatus } from '../../operations/components/operation-report';
import { StoppedWork } from '../../operations/components/stopped-work';
import { useOperation } from '../../operations/store';
import type { StoppedJob } from '../../../../shared/ipc/jobs';

const importModes = [
  { value: 'create-only', label: 'Only create (never replace an existing item)' },
  { value: 'overwrite', label: 'Replace existing items' },
] as const;

/** A dry run or an import started here, and what it was run on. */
interface Run {
  id: string;
  dryRun: boolean;
  chosen: string;
  isResume?: boolean;
}

type Picked =
  | { kind: 'none' }
  | { kind: 'reading'; name: string }
  | { kind: 'upload'; name: string; uploadId: string; bytes: number }
  | { kind: 'chosen'; name: string; fileId: string };

/** Import with a dry run first: what would be written, what exists already, which lines are wrong. */
export function ImportDialog({
  connection,
  table,
  onClose,
}: {
  connection: Connection;
  table: string;
  onClose(): void;
}) {
  const isBrowser = useAppInfoStore((s) => s.info?.mode) === 'browser';
  const [format, setFormat] = useState<TransferFormat>('jsonl');
  const [path, setPath] = useState('');
  const [picked, setPicked] = useState<Picked>({ kind: 'none' });
  const [mode, setMode] = useState<'create-only' | 'overwrite'>('create-only');
  const [typed, setTyped] = useState('');
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<AppError>();
  const needsName = needsTypedConfirmation('import', 0, connection.isProduction);
  const source =
    picked.kind === 'chosen'
      ? { fileId: picked.fileId }
      : picked.kind === 'upload'
        ? { uploadId: picked.uploadId, name: picked.name }
        : { path };
  const hasSource =
    picked.kind === 'chosen' || picked.kind === 'upload' || (picked.kind === 'none' && path !== '');
  // What a dry run was run on: another file, format or mode wants its own before Import.
  const chosen = JSON.stringify([format, source, mode]);
  // Browser mode sends the file's bytes to the server (which reads no path the page chose).
  const pick = async (file: File | undefined): Promise<void> => {
    setError(undefined);
    if (!file) {
      setPicked({ kind: 'none' });
      return;
    }
    setPicked({ kind: 'reading', name: file.name });
    const sent = await uploadImportFile(file);
    if (!sent.ok) {
      setError(sent.error);
      setPicked({ kind: 'none' });
      return;
    }
    setPicked({ kind: 'upload', name: file.name, ...sent.value });
  };
  // The desktop window asks main for the system's open dialog; main keeps the path it returns.
  const choose = async (): Promise<void> => {
    setError(undefined);
    const chosen = await call('files:choose', { purpose: 'import', format });
    if (!chosen.ok) {
      setError(chosen.error);
      return;
    }
    if ('fileId' in chosen.value) setPicked({ kind: 'chosen', ...chosen.value });
  };
  const start = async (dryRun: boolean): Promise<void> => {
    const id = newRequestId('import');
    setRuns((r) => [...r, { id, dryRun, chosen }]);
    const started = await call('transfer:import', {
      connectionId: connection.id,
      table,
      requestId: id,
      format,
      source,
      dryRun,
      mode,
      ...(needsName && !dryRun ? { confirmTable: typed } : {}),
    });
    settle(id, started);
  };
  /**
   * A run main refused never started: it leaves the list of runs (no progress waits for it, and
   * the stopped imports come back to try again), and its sentence is shown.
   */
  const settle = (id: string, started: { ok: true } | { ok: false; error: AppError }): void => {
    if (started.ok) {
      setError(undefined);
      return;
    }
    setRuns((r) => r.filter((run) => run.id !== id));
    setError(started.error);
  };
  /** Goes on with a stopped import after the last line it wrote: main checks the file is unchanged. */
  const resume = async (job: StoppedJob): Promise<void> => {
    const id = newRequestId('import');
    setRuns((r) => [...r, { id, dryRun: false, chosen, isResume: true }]);
    const started = await call('transfer:resumeImport', {
      connectionId: connection.id,
      table,
      requestId: id,
      jobId: job.id,
      ...(needsName ? { confirmTable: typed } : {}),
    });
    settle(id, started);
  };
  const last = runs.at(-1);
  const lastState = useOperation(last?.id);
  const isImporting = last !== undefined && !last.dryRun && lastState?.isFinished !== true;
  const isDryRunning = last?.dryRun === true && lastState?.isFinished !== true;
  // Import follows a dry run of what is chosen now, once its report is on screen.
  const dryRun = runs.findLast((run) => run.dryRun && run.chosen === chosen);
  const dryRunEnd = useOperation(dryRun?.id)?.latest.type;
  const isDryRunShown = dryRunEnd === 'done';
  const isConfirmed = !needsName || typed === table;
  const canDryRun = hasSource && !isDryRunning && !isImporting;
  const canImport = isDryRunShown && !connection.readOnly && isConfirmed && !isImporting && !isDryRunning;
  // Nothing said once an import ran (a resumed one reads the file it stopped in, none chosen here).
  const hasImported = runs.some((run) => !run.dryRun);
  const hint = hasImported
    ? undefined
    : !hasSource
      ? 'Choose a file; a dry run then shows what Import would write.'
      : connection.readOnly
        ? 'This connection is read-only: a dry run only.'
        : !dryRun
          ? 'A dry run reads the file and writes nothing; Import follows it.'
          : isDryRunShown && !isConfirmed
            ? 'Type the table name to confirm the import.'
            : undefined;
  // Focus after Resume: where the resumed import shows (its progress and Cancel, then its ending
  // or main's refusal); after Dismiss of the last stopped import: the file, to start one again.
  const status = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const chooseFile = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={`Import into ${table}`}
      onClose={onClose}
      width="lg"
      // Enter runs the next step: the dry run of what is chosen, then the import it showed.
      onEnter={canImport ? () => void start(false) : canDryRun ? () => void start(true) : undefined}
      footer={
        <DialogActions
          status={hint ? <span className="muted">{hint}</span> : undefined}
          closeLabel={isImporting ? 'Close (the import goes on)' : runs.length > 0 ? 'Close' : 'Cancel'}
          onClose={onClose}
          secondary={
            // Busy, not disabled, while it runs: the pressed button keeps focus.
            <Button
              onClick={() => void start(true)}
              disabled={!canDryRun && !isDryRunning}
              isBusy={isDryRunning}
            >
              Dry run
            </Button>
          }
          primary={
            <Button
              variant="primary"
              disabled={!canImport && !isImporting}
              isBusy={isImporting}
              onClick={() => void start(false)}
            >
              Import
            </Button>
          }
        />
      }
    >
      <div className="bulk-form">
        <FormatChoice formats={TYPED_FORMATS} value={format} onChange={setFormat} />
        <fieldset className="form-group">
          <legend>File</legend>
          {isBrowser ? (
            <>
              <div className="qb-row">
                <input
                  ref={fileInput}
                  type="file"
                  aria-label="File to upload and import"
                  onChange={(e) => void pick(e.target.files?.[0])}
                />
                {picked.kind === 'reading' ? (
                  <span className="muted" role="status">
                    Uploading {picked.name}…
                  </span>
                ) : picked.kind === 'upload' ? (
                  <span className="muted" role="status">
                    Uploaded {picked.name} ({formatBytes(picked.bytes)})
                  </span>
                ) : null}
              </div>
              <div className="qb-row">
                <span className="muted">or a file on the server, in DynoTable's export folder:</span>
                <TextInput
                  className="export-path"
                  label="A file on the server, in DynoTable's export folder"
                  placeholder={`items.${extensionOf(format)}`}
                  value={path}
                  disabled={picked.kind !== 'none'}
                  onChange={setPath}
                />
              </div>
            </>
          ) : (
            <div className="qb-row">
              <Button ref={chooseFile} onClick={() => void choose()}>
                Choose file…
              </Button>
              {picked.kind === 'chosen' ? (
                <span className="muted" role="status">
                  {picked.name}
                </span>
              ) : null}
            </div>
          )}
        </fieldset>
        <ChoiceGroup
          legend="Items already in the table"
          value={mode}
          choices={importModes}
          onChange={setMode}
        />
        {needsName ? (
          <ConfirmTableInput confirms="the import" table={table} value={typed} onChange={setTyped} />
        ) : null}
        <StoppedWork
          connectionId={connection.id}
          table={table}
          kind="import"
          isHidden={runs.some((run) => !run.dryRun)}
          onResume={(job) => void resume(job)}
          focusAfterResume={status}
          focusWhenEmpty={isBrowser ? fileInput : chooseFile}
          resumeBlocked={
            connection.readOnly
              ? 'This connection is read-only.'
              : needsName && typed !== table
                ? 'Type the table name above to confirm, as for an import.'
                : undefined
          }
        />
        <div className="import-status" ref={status} tabIndex={-1} role="group" aria-label="This import">
          {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
          {last ? (
            <OperationStatus
              key={last.id}
              channel={last.isResume ? 'transfer:resumeImport' : 'transfer:import'}
              requestId={last.id}
              label={last.dryRun ? 'Dry run' : undefined}
              connectionId={connection.id}
              render={(report) => <ImportSummary report={report} />}
            />
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}

function ImportSummary({ report }: { report: ImportReport }) {
  // In the file's own parts, as the stopped-import sentence counts them: a CSV's rows (a row with
  // a quoted line break spans lines of the file), JSON Lines' lines, a document's items.
  const part = importParts[report.format];
  return (
    <div className="import-summary">
      <p>
        {report.dryRun ? 'Dry run: ' : ''}
        {report.total.toLocaleString('en-US')} read · {report.written.toLocaleString('en-US')}{' '}
        {report.dryRun ? 'would be written' : 'written'} · {report.existing} already exist · {report.invalid}{' '}
        invalid · {report.failed} failed
      </p>
      {report.failures.length > 0 ? (
        <ul className="issue-list" aria-label={`Problems by ${part.one}`}>
          {report.failures.slice(0, 50).map((f) => (
            <li key={`${f.line}-${f.code}`} className="field-error">
              {part.oneCapital} {f.line.toLocaleString('en-US')}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
