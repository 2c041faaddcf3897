import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { TransferFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { Dialog } from '../../../ui/dialog';
import { downloadUrl } from '../../../ui/download';
import { ErrorMessage } from '../../../ui/error-message';
import { formatBytes } from '../../../ui/format';
import { TextInput } from '../../../ui/text-input';
import { useAppInfoStore } from '../../app-info/store';
import { FormatChoice } from './format-choice';
import { OperationStatus } from '../../operations/components/operation-report';

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
  const fileName = `${table}.${extension}`;
  // Undefined until the user types: the box then shows the file name that follows the format.
  const [typedPath, setPath] = useState<string>();
  const path = typedPath ?? fileName;
  const [isDownloading, setDownloading] = useState(false);
  const [overwrite, setOverwrite] = useState(false);
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const download = `/api/download/export?${new URLSearchParams({ resultSetId, format, table }).toString()}`;
  const start = async (): Promise<void> => {
    // The desktop window asks main for the system's save dialog; main keeps the path it returns.
    let where: { fileId: string } | { path: string; overwrite: boolean } = { path, overwrite };
    if (mode !== 'browser') {
      const chosen = await call('files:choose', {
        purpose: 'export',
        format,
        suggestedName: fileName,
      });
      if (!chosen.ok) {
        setError(chosen.error);
        return;
      }
      if ('cancelled' in chosen.value) return;
      where = { fileId: chosen.value.fileId };
    }
    const id = newRequestId('export');
    setRequestId(id);
    const started = await call('transfer:export', {
      requestId: id,
      resultSetId,
      format,
      ...where,
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
        <FormatChoice value={format} onChange={setFormat} />
        <div className="qb-row">
          <Check type="radio" checked={scope === 'all'} onChange={() => setScope('all')}>
            All {total.toLocaleString('en-US')} rows
          </Check>
          <Check
            type="radio"
            disabled={rows.length === 0}
            checked={scope === 'selected'}
            onChange={() => setScope('selected')}
          >
            {rows.length} selected
          </Check>
        </div>
        {mode === 'browser' && scope === 'all' ? (
          <div className="qb-row">
            <Button
              variant="primary"
              onClick={() => {
                downloadUrl(download, fileName);
                setDownloading(true);
              }}
            >
              Download {total.toLocaleString('en-US')} rows
            </Button>
            <span className="muted">streams straight from the result set to your browser</span>
          </div>
        ) : null}
        {isDownloading ? (
          <p role="status">
            Saving the export in your browser’s downloads folder (named after the table and the time); the
            browser shows its progress.
          </p>
        ) : null}
        {mode === 'browser' ? (
          <div className="qb-row">
            <TextInput
              className="export-path"
              label="Or save on the server, in DynoTable's export folder, as"
              value={path}
              onChange={setPath}
            />
            <Check checked={overwrite} onChange={setOverwrite}>
              Replace if it exists
            </Check>
            <Button
              variant="primary"
              disabled={path.trim() === '' || requestId !== undefined}
              onClick={() => void start()}
            >
              Save on the server
            </Button>
          </div>
        ) : (
          <div className="qb-row">
            <Button variant="primary" disabled={requestId !== undefined} onClick={() => void start()}>
              Save as…
            </Button>
          </div>
        )}
        {error ? <ErrorMessage compact error={error} /> : null}
        {requestId ? (
          <OperationStatus
            channel="transfer:export"
            requestId={requestId}
            render={(report) => {
              return (
                <p>
                  Saved {report.items.toLocaleString('en-US')} items ({formatBytes(report.bytes)}) to{' '}
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
