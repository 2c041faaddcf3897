import { useState } from 'react';
import { needsTypedConfirmation } from '../../../../shared/dynamo/confirmation';
import type { AppError, Connection } from '../../../../shared/ipc';
import type { ImportReport, TransferFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { TextInput } from '../../../ui/text-input';
import { FormatChoice } from './format-choice';
import { OperationStatus } from './operation-report';

const MAX_UPLOAD = 50_000_000;

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
  const [format, setFormat] = useState<TransferFormat>('jsonl');
  const [path, setPath] = useState('');
  const [text, setText] = useState<string>();
  const [mode, setMode] = useState<'create-only' | 'overwrite'>('create-only');
  const [typed, setTyped] = useState('');
  const [runs, setRuns] = useState<{ id: string; dryRun: boolean }[]>([]);
  const [error, setError] = useState<AppError>();
  const needsName = needsTypedConfirmation('import', 0, connection.isProduction);
  const source = text !== undefined ? { text } : { path };
  const start = async (dryRun: boolean): Promise<void> => {
    const id = newRequestId('import');
    setRuns((r) => [...r, { id, dryRun }]);
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
    setError(started.ok ? undefined : started.error);
  };
  const last = runs.at(-1);
  return (
    <Dialog
      title={`Import into ${table}`}
      onClose={onClose}
      width="lg"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <div className="bulk-form">
        <FormatChoice value={format} onChange={setFormat} />
        <div className="qb-row">
          <TextInput
            className="export-path"
            label="File to import (full path)"
            placeholder="/home/you/Downloads/items.jsonl"
            value={path}
            disabled={text !== undefined}
            onChange={setPath}
          />
          <span className="muted">or</span>
          <input
            type="file"
            aria-label="Upload a file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) {
                setText(undefined);
                return;
              }
              if (file.size > MAX_UPLOAD) {
                setError({
                  code: 'InvalidInput',
                  message: 'Uploads are limited to 50 MB; give the path of a larger file instead.',
                  retryable: false,
                });
                return;
              }
              void file.text().then(setText);
            }}
          />
        </div>
        <div className="qb-row">
          <Check type="radio" checked={mode === 'create-only'} onChange={() => setMode('create-only')}>
            Only create (never replace an existing item)
          </Check>
          <Check type="radio" checked={mode === 'overwrite'} onChange={() => setMode('overwrite')}>
            Replace existing items
          </Check>
        </div>
        <div className="qb-row">
          <Button onClick={() => void start(true)} disabled={path === '' && text === undefined}>
            Dry run
          </Button>
          {needsName ? <ConfirmTableInput table={table} value={typed} onChange={setTyped} /> : null}
          <Button
            variant="primary"
            disabled={connection.readOnly || !runs.some((r) => r.dryRun) || (needsName && typed !== table)}
            title={runs.some((r) => r.dryRun) ? undefined : 'Dry-run it first'}
            onClick={() => void start(false)}
          >
            Import
          </Button>
        </div>
        {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
        {last ? (
          <OperationStatus
            key={last.id}
            requestId={last.id}
            connectionId={connection.id}
            render={(value) => <ImportSummary report={value as ImportReport} />}
          />
        ) : null}
      </div>
    </Dialog>
  );
}

function ImportSummary({ report }: { report: ImportReport }) {
  return (
    <div className="import-summary">
      <p>
        {report.dryRun ? 'Dry run: ' : ''}
        {report.total.toLocaleString('en-US')} read · {report.written.toLocaleString('en-US')}{' '}
        {report.dryRun ? 'would be written' : 'written'} · {report.existing} already exist · {report.invalid}{' '}
        invalid · {report.failed} failed
      </p>
      {report.failures.length > 0 ? (
        <ul className="issue-list" aria-label="Problems by line">
          {report.failures.slice(0, 50).map((f) => (
            <li key={`${f.line}-${f.code}`} className="field-error">
              Line {f.line}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
