import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { ExportReport, TransferFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { formatBytes } from '../../../ui/format';
import { useAppInfoStore } from '../../app-info/store';
import { OperationStatus } from './operation-report';

export const formatLabels: Record<TransferFormat, string> = {
  'dynamodb-json': 'DynamoDB JSON',
  jsonl: 'JSON Lines (S3 export format)',
  csv: 'CSV with a type row',
};

export interface ExportDialogProps {
  table: string;
  resultSetId: string;
  total: number;
  /** Selected row indexes of the result set, when the user chose some. */
  rows: number[];
  onClose(): void;
}

/** Writes the result (or the selection) to a file as it streams from the result set. */
export function ExportDialog({ table, resultSetId, total, rows, onClose }: ExportDialogProps) {
  const mode = useAppInfoStore((s) => s.info?.mode);
  const [format, setFormat] = useState<TransferFormat>('jsonl');
  const [scope, setScope] = useState<'all' | 'selected'>(rows.length > 0 ? 'selected' : 'all');
  const extension = format === 'dynamodb-json' ? 'json' : format;
  const [path, setPath] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const download = `/api/download/export?${new URLSearchParams({ resultSetId, format, table }).toString()}`;
  const start = async (): Promise<void> => {
    const id = newRequestId('export');
    setRequestId(id);
    const started = await call('transfer:export', {
      requestId: id,
      resultSetId,
      format,
      path,
      overwrite,
      ...(scope === 'selected' ? { rows } : {}),
    });
    if (!started.ok) {
      setError(started.error);
      setRequestId(undefined);
    }
  };
  return (
    <Dialog title="Export" onClose={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      <div className="bulk-form">
        <div className="qb-row">
          {(['jsonl', 'dynamodb-json', 'csv'] as const).map((f) => (
            <label key={f} className="qb-check">
              <input type="radio" checked={format === f} onChange={() => setFormat(f)} />
              {formatLabels[f]}
            </label>
          ))}
        </div>
        <div className="qb-row">
          <label className="qb-check">
            <input type="radio" checked={scope === 'all'} onChange={() => setScope('all')} />
            All {total.toLocaleString('en-US')} rows
          </label>
          <label className="qb-check">
            <input
              type="radio"
              disabled={rows.length === 0}
              checked={scope === 'selected'}
              onChange={() => setScope('selected')}
            />
            {rows.length} selected
          </label>
        </div>
        {mode === 'browser' && scope === 'all' ? (
          <p>
            <a className="btn btn-secondary btn-md" href={download} download>
              Download {table}.{extension}
            </a>{' '}
            <span className="muted">
              streams straight from the result set; or save to a path on this machine:
            </span>
          </p>
        ) : null}
        <div className="qb-row">
          <input
            className="input export-path"
            aria-label="Save to (full path)"
            placeholder={`/home/you/Downloads/${table}.${extension}`}
            value={path}
            onChange={(e) => setPath(e.target.value)}
          />
          <label className="qb-check">
            <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
            Replace if it exists
          </label>
          <Button
            variant="primary"
            disabled={path === '' || requestId !== undefined}
            onClick={() => void start()}
          >
            Export
          </Button>
        </div>
        {error ? <ErrorMessage compact error={error} /> : null}
        {requestId ? (
          <OperationStatus
            requestId={requestId}
            render={(value) => {
              const report = value as ExportReport;
              return (
                <p>
                  Wrote {report.items.toLocaleString('en-US')} items ({formatBytes(report.bytes)}) to{' '}
                  <code>{report.path}</code>.
                </p>
              );
            }}
          />
        ) : null}
      </div>
    </Dialog>
  );
}
