import { useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { RowsFormat } from '../../../../shared/ipc/transfer';
import type { TableSummary } from '../../../../shared/ipc/tables';
import { fullScanReadUnits } from '../../../../shared/dynamo/purge-estimate';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { ChoiceGroup } from '../../../ui/choice-group';
import { Dialog, DialogActions } from '../../../ui/dialog';
import { downloadUrl } from '../../../ui/download';
import { ErrorMessage } from '../../../ui/error-message';
import { countOf, formatBytes } from '../../../ui/format';
import { Select } from '../../../ui/select';
import { FormRow, RowField } from '../../../ui/form-row';
import { TextInput } from '../../../ui/text-input';
import { useAppInfoStore } from '../../app-info/store';
import { FormatChoice, ROWS_FORMATS } from './format-choice';
import { OperationStatus } from '../../operations/components/operation-report';
import { useOperation } from '../../operations/store';
import { extensionOf, TableExport, useTableExport } from './table-export';

export interface ExportDialogProps {
  connectionId: string;
  table: string;
  /** The table as described, for the whole-table choice's size and cost and its indexes. */
  summary: TableSummary | undefined;
  /** The index the query builder reads, offered first for a whole-index export. */
  index: string | undefined;
  /** The rows fetched so far; absent before the first read. */
  resultSetId: string | undefined;
  total: number;
  /** Selected row indexes of the result set, when the user chose some. */
  rows: number[];
  onClose(): void;
}

/** The rows fetched, the selected ones, or the whole table or one of its indexes. */
type ExportScope = 'all' | 'selected' | 'table' | 'index';

/**
 * Writes the rows fetched (or the selection) to a file as they stream from the result set, or
 * the whole table or one of its indexes, read to the end, with progress, cancel and resume.
 */
export function ExportDialog(props: ExportDialogProps) {
  const { connectionId, table, summary, resultSetId, total, rows, onClose } = props;
  const mode = useAppInfoStore((s) => s.info?.mode);
  const indexes = summary?.indexes ?? [];
  const [index, setIndex] = useState(props.index ?? indexes[0]?.name);
  const [scope, setScope] = useState<ExportScope>(
    rows.length > 0 ? 'selected' : resultSetId ? 'all' : 'table',
  );
  const isWhole = scope === 'table' || scope === 'index';
  const [chosenFormat, setFormat] = useState<RowsFormat>('jsonl');
  // A whole-table export is resumable and typed (transfer:exportTable): it writes no JSON array.
  const format = isWhole && chosenFormat === 'json' ? 'jsonl' : chosenFormat;
  const extension = extensionOf(format);
  const fileName = `${table}.${extension}`;
  // Undefined until the user types: the box then shows the file name that follows the format.
  const [typedPath, setPath] = useState<string>();
  const path = typedPath ?? fileName;
  const [isDownloading, setDownloading] = useState(false);
  const [overwrite, setOverwrite] = useState(false);
  const [requestId, setRequestId] = useState<string>();
  const [error, setError] = useState<AppError>();
  const download = `/api/download/export?${new URLSearchParams({ resultSetId: resultSetId ?? '', format, table }).toString()}`;
  const chosenIndex = indexes.find((i) => i.name === index);
  const exporter = useTableExport({
    connectionId,
    table,
    index: scope === 'index' ? index : undefined,
    format: format === 'json' ? 'jsonl' : format,
    mode,
    isChosen: isWhole,
  });
  const saving = useOperation(requestId);
  const isSaving = requestId !== undefined && saving?.isFinished !== true;
  const start = async (): Promise<void> => {
    if (!resultSetId) return;
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
  const saveLabel = mode === 'browser' ? 'Save on the server' : 'Save as…';
  const canSave = requestId === undefined && (mode !== 'browser' || path.trim() !== '');
  // One primary action, in the footer as in every dialog that starts work: the whole table's
  // export, browser mode's download of every row fetched, or saving the rows to a file.
  const primary: { label: string; run(): void; isEnabled: boolean } = isWhole
    ? { label: exporter.label, run: () => void exporter.start(), isEnabled: exporter.canStart }
    : mode === 'browser' && scope === 'all'
      ? {
          label: `Download ${total.toLocaleString('en-US')} rows`,
          run: () => {
            downloadUrl(download, fileName);
            setDownloading(true);
          },
          isEnabled: resultSetId !== undefined,
        }
      : { label: saveLabel, run: () => void start(), isEnabled: canSave };
  const isRunning = isWhole ? exporter.isBusy : isSaving;
  const hasStarted = isWhole ? exporter.running !== undefined : requestId !== undefined || isDownloading;
  return (
    <Dialog
      title="Export"
      onClose={onClose}
      onEnter={primary.isEnabled ? primary.run : undefined}
      footer={
        <DialogActions
          closeLabel={isRunning ? 'Close (the export goes on)' : hasStarted ? 'Close' : 'Cancel'}
          onClose={onClose}
          primary={
            <Button variant="primary" disabled={!primary.isEnabled} onClick={primary.run}>
              {primary.label}
            </Button>
          }
        />
      }
    >
      <div className="bulk-form">
        <FormatChoice
          formats={ROWS_FORMATS}
          value={format}
          onChange={setFormat}
          unavailable={
            isWhole
              ? {
                  format: 'json',
                  reason: 'A whole table or index exports as JSON Lines, DynamoDB JSON or CSV.',
                }
              : undefined
          }
        />
        <ChoiceGroup<ExportScope>
          legend="What to export"
          value={scope}
          choices={[
            {
              value: 'all',
              label: `All ${total.toLocaleString('en-US')} rows fetched`,
              disabled: !resultSetId,
            },
            { value: 'selected', label: `${rows.length} selected`, disabled: rows.length === 0 },
            { value: 'table', label: 'Whole table' },
            ...(indexes.length > 0 ? [{ value: 'index' as const, label: 'Whole index' }] : []),
          ]}
          onChange={setScope}
          beside={
            scope === 'index' ? (
              <Select
                label="Index to export"
                value={index ?? ''}
                onChange={setIndex}
                options={indexes.map((i) => i.name)}
              />
            ) : null
          }
        >
          {scope === 'table' && summary ? (
            <p className="muted">
              About {countOf(summary.itemCount, 'item')} ({formatBytes(summary.sizeBytes)}, as DynamoDB last
              counted). Reading all of it is a full Scan: about{' '}
              {countOf(fullScanReadUnits(summary.sizeBytes), 'read unit')}. You can cancel and resume where it
              stopped; the file appears when it is complete.
            </p>
          ) : null}
          {scope === 'index' && chosenIndex ? (
            <p className="muted">
              {chosenIndex.itemCount === undefined
                ? 'DynamoDB has not counted this index yet.'
                : `About ${countOf(chosenIndex.itemCount, 'item')} in ${chosenIndex.name}.`}{' '}
              Only what the index projects ({chosenIndex.projection.toLowerCase().replace('_', ' ')}) is
              exported. You can cancel and resume where it stopped.
            </p>
          ) : null}
        </ChoiceGroup>
        {isWhole ? <TableExport exporter={exporter} /> : null}
        {!isWhole && mode === 'browser' && scope === 'all' ? (
          <p className="muted">Download streams every row straight from the result set to your browser.</p>
        ) : null}
        {!isWhole && isDownloading ? (
          <p role="status">
            Saving the export in your browser’s downloads folder (named after the table and the time); the
            browser shows its progress.
          </p>
        ) : null}
        {!isWhole && mode === 'browser' ? (
          // The sentence on a line of its own: as the field's caption it wrapped to two lines over
          // a narrow field beside Replace and the button, at 1024 px.
          <>
            <p>
              {scope === 'all' ? 'Or save on the server' : 'Save on the server'}, in DynoTable&apos;s export
              folder:
            </p>
            <FormRow>
              <RowField grow caption="File name">
                <TextInput
                  label={`File name: ${scope === 'all' ? 'Or save on the server' : 'Save on the server'}, in DynoTable's export folder, as`}
                  value={path}
                  onChange={setPath}
                  onKeyDown={(event) => {
                    // Enter here saves on the server, whichever action the footer leads with.
                    if (event.key !== 'Enter' || !canSave) return;
                    event.preventDefault();
                    void start();
                  }}
                />
              </RowField>
              <Check checked={overwrite} onChange={setOverwrite}>
                Replace if it exists
              </Check>
              {/* Beside the download, the other way: its own button, by its field. */}
              {scope === 'all' ? (
                <Button disabled={!canSave} onClick={() => void start()}>
                  Save on the server
                </Button>
              ) : null}
            </FormRow>
          </>
        ) : null}
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
