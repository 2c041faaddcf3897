import { useEffect, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { RowsFormat, TableExportSummary, TransferFormat } from '../../../../shared/ipc/transfer';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { downloadUrl } from '../../../ui/download';
import { ErrorMessage } from '../../../ui/error-message';
import { countOf, formatBytes, formatDate } from '../../../ui/format';
import { TextInput } from '../../../ui/text-input';
import { FormRow, RowField } from '../../../ui/form-row';
import { OperationStatus } from '../../operations/components/operation-report';
import { useOperation } from '../../operations/store';

const formatNames: Record<TransferFormat, string> = {
  'dynamodb-json': 'DynamoDB JSON',
  jsonl: 'JSON Lines',
  csv: 'CSV',
};

export const extensionOf = (format: RowsFormat) => (format === 'dynamodb-json' ? 'json' : format);

/** The saved file's name inside the export folder, for browser mode's download link. */
const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;

export interface TableExportOptions {
  connectionId: string;
  table: string;
  /** Export this index instead of the table. */
  index: string | undefined;
  format: TransferFormat;
  mode: 'desktop' | 'browser' | undefined;
  /** False while the dialog exports rows instead: nothing is listed. */
  isChosen: boolean;
}

export type TableExportState = ReturnType<typeof useTableExport>;

/**
 * The whole table (or one index) read straight to a file: its start (the Export dialog's primary
 * action, in its footer), and what TableExport shows of it.
 */
export function useTableExport({ connectionId, table, index, format, mode, isChosen }: TableExportOptions) {
  const suggested = `${index ? `${table}-${index}` : table}.${extensionOf(format)}`;
  const [typedPath, setPath] = useState<string>();
  const path = typedPath ?? suggested;
  const [overwrite, setOverwrite] = useState(false);
  const [running, setRunning] = useState<{ requestId: string; channel: 'exportTable' | 'resume' }>();
  const [stopped, setStopped] = useState<TableExportSummary[]>([]);
  const [error, setError] = useState<AppError>();
  const isFinished = useOperation(running?.requestId)?.isFinished;

  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    // On choosing it, after a Forget, and whenever an export here ends (a cancel leaves one to resume).
    if (!isChosen || isFinished === false) return;
    let isCurrent = true;
    void call('transfer:tableExports', { connectionId, table }).then((listed) => {
      if (isCurrent && listed.ok) setStopped(listed.value.filter((e) => e.state === 'stopped'));
    });
    return () => {
      isCurrent = false;
    };
  }, [connectionId, table, isFinished, reloads, isChosen]);

  const start = async (): Promise<void> => {
    setError(undefined);
    let where: { fileId: string } | { path: string; overwrite: boolean } = { path, overwrite };
    if (mode !== 'browser') {
      const chosen = await call('files:choose', { purpose: 'export', format, suggestedName: suggested });
      if (!chosen.ok) {
        setError(chosen.error);
        return;
      }
      if ('cancelled' in chosen.value) return;
      where = { fileId: chosen.value.fileId };
    }
    const requestId = newRequestId('tableexport');
    setRunning({ requestId, channel: 'exportTable' });
    const started = await call('transfer:exportTable', {
      requestId,
      connectionId,
      table,
      ...(index ? { index } : {}),
      format,
      ...where,
    });
    if (!started.ok) {
      setError(started.error);
      setRunning(undefined);
    }
  };

  const resume = async (exportId: string): Promise<void> => {
    setError(undefined);
    const requestId = newRequestId('tableexport');
    setRunning({ requestId, channel: 'resume' });
    const started = await call('transfer:resumeTableExport', { requestId, exportId });
    if (!started.ok) {
      setError(started.error);
      setRunning(undefined);
    }
  };

  const forget = async (exportId: string): Promise<void> => {
    const answer = await call('transfer:forgetTableExport', { exportId });
    if (!answer.ok) setError(answer.error);
    setReloads((n) => n + 1);
  };

  const isBusy = running !== undefined && isFinished !== true;
  return {
    connectionId,
    index,
    mode,
    path,
    setPath,
    overwrite,
    setOverwrite,
    running,
    stopped,
    error,
    isBusy,
    /** Export table as… (desktop: the system's save dialog first) or Export table (browser mode). */
    label: `Export ${index ? 'index' : 'table'}${mode === 'browser' ? '' : ' as…'}`,
    canStart: !isBusy && (mode !== 'browser' || path.trim() !== ''),
    start,
    resume,
    forget,
  };
}

/** What a whole-table export shows in the dialog: its file name, progress, report, stopped exports. */
export function TableExport({ exporter }: { exporter: TableExportState }) {
  const { connectionId, mode, path, setPath, overwrite, setOverwrite, running, stopped, error, isBusy } =
    exporter;
  const { resume, forget } = exporter;
  const done = (report: { path: string; items: number; bytes: number; consumedCapacity: number }) => (
    <p>
      Exported {countOf(report.items, 'item')} ({formatBytes(report.bytes)},{' '}
      {report.consumedCapacity.toFixed(1)} read units) to <code>{report.path}</code>.{' '}
      {mode === 'browser' ? (
        <Button
          size="sm"
          onClick={() =>
            downloadUrl(
              `/api/download/export?${new URLSearchParams({ saved: baseName(report.path) }).toString()}`,
              baseName(report.path),
            )
          }
        >
          Download {baseName(report.path)}
        </Button>
      ) : null}
    </p>
  );
  return (
    <div className="table-export">
      {mode === 'browser' ? (
        <FormRow>
          <RowField grow caption="File name in DynoTable's export folder">
            <TextInput label="File name in DynoTable's export folder" value={path} onChange={setPath} />
          </RowField>
          <Check checked={overwrite} onChange={setOverwrite}>
            Replace if it exists
          </Check>
        </FormRow>
      ) : null}
      {error ? <ErrorMessage compact error={error} connectionId={connectionId} /> : null}
      {running ? (
        running.channel === 'exportTable' ? (
          <OperationStatus
            channel="transfer:exportTable"
            requestId={running.requestId}
            connectionId={connectionId}
            render={done}
          />
        ) : (
          <OperationStatus
            channel="transfer:resumeTableExport"
            requestId={running.requestId}
            connectionId={connectionId}
            render={done}
          />
        )
      ) : null}
      {stopped.length > 0 ? (
        <section aria-label="Stopped exports of this table" className="table-export-stopped">
          <h3>Stopped before the end</h3>
          <ul>
            {stopped.map((e) => (
              <li key={e.exportId}>
                <span>
                  {e.index ? `Index ${e.index}` : 'Table'} as {formatNames[e.format]}: stopped at{' '}
                  {e.items.toLocaleString('en-US')} of ≈ {e.sourceCount.toLocaleString('en-US')} items (
                  {e.consumedCapacity.toFixed(1)} read units so far), {formatDate(e.savedAt)}, to{' '}
                  <code>{e.path}</code>.
                </span>{' '}
                <Button size="sm" disabled={isBusy} onClick={() => void resume(e.exportId)}>
                  Resume
                </Button>{' '}
                <Button size="sm" variant="ghost" disabled={isBusy} onClick={() => void forget(e.exportId)}>
                  Forget
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
