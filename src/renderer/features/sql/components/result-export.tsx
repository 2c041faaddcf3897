import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { RowsFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { downloadUrl } from '../../../ui/download';
import { ErrorMessage } from '../../../ui/error-message';
import { formatBytes } from '../../../ui/format';
import { Select } from '../../../ui/select';
import { useAppInfoStore } from '../../app-info/store';
import { OperationStatus } from '../../operations/components/operation-report';

const FORMATS: readonly RowsFormat[] = ['csv', 'json', 'jsonl', 'dynamodb-json'];
const formatLabels: Record<RowsFormat, string> = {
  csv: 'CSV',
  json: 'JSON array',
  jsonl: 'JSON Lines',
  'dynamodb-json': 'DynamoDB JSON',
};
const extensionOf = (format: RowsFormat) => (format === 'dynamodb-json' ? 'json' : format);

/**
 * Exports a whole SQL result through the items' one export path (transfer:export with
 * sqlResultId): every row, streamed from main. Browser mode downloads it as it is written; the
 * desktop window asks where to save and shows the export's progress with Cancel. Two parts:
 * the controls for the results bar, and the status for the row under it.
 */
export function useResultExport(resultId: string): { controls: React.ReactNode; status: React.ReactNode } {
  const mode = useAppInfoStore((s) => s.info?.mode);
  const [format, setFormat] = useState<RowsFormat>('csv');
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const fileName = `sql-result.${extensionOf(format)}`;
  const start = async (): Promise<void> => {
    setError(undefined);
    if (mode === 'browser') {
      const query = new URLSearchParams({ sqlResultId: resultId, format, table: 'sql-result' });
      downloadUrl(`/api/download/export?${query.toString()}`, fileName);
      return;
    }
    const chosen = await call('files:choose', { purpose: 'export', format, suggestedName: fileName });
    if (!chosen.ok) {
      setError(chosen.error);
      return;
    }
    if ('cancelled' in chosen.value) return;
    const id = newRequestId('export');
    setRequestId(id);
    const started = await call('transfer:export', {
      requestId: id,
      sqlResultId: resultId,
      format,
      fileId: chosen.value.fileId,
    });
    if (!started.ok) {
      setError(started.error);
      setRequestId(undefined);
    }
  };
  return {
    controls: (
      <span className="sql-export">
        <Select<RowsFormat>
          label="Export format"
          value={format}
          options={FORMATS}
          labelOf={(option) => formatLabels[option]}
          onChange={setFormat}
        />
        <Button size="sm" onClick={() => void start()}>
          Export
        </Button>
      </span>
    ),
    status:
      error || requestId ? (
        <div className="sql-export-status">
          {error ? <ErrorMessage compact error={error} /> : null}
          {requestId ? (
            <OperationStatus
              channel="transfer:export"
              requestId={requestId}
              render={(report) => (
                <p>
                  Exported {report.items.toLocaleString('en-US')} rows ({formatBytes(report.bytes)}) to{' '}
                  <code>{report.path}</code>.
                </p>
              )}
            />
          ) : null}
        </div>
      ) : null,
  };
}
