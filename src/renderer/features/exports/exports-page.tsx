import { useCallback, useEffect, useState } from 'react';
import type { AppError, Envelope } from '../../../shared/ipc';
import type { ChannelOutput } from '../../../shared/ipc/contract';
import type { ExportStateView, OpenedExportView } from '../../../shared/ipc/exports';
import type { KeySchema } from '../../../shared/ipc/tables';
import { call, newRequestId } from '../../ipc/client';
import { useAppInfoStore } from '../app-info/store';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ErrorMessage } from '../../ui/error-message';
import { formatBytes, formatDate } from '../../ui/format';
import { ResultSetDialog, type OpenResultSet } from '../agent/components/result-set-dialog';
import { CopyDialog } from '../copy/copy-dialog';
import type { TableViewProps } from '../table/tabs';
import { ExportForm } from './export-form';
import { ImportDialog, type ImportDefaults } from './import-dialog';
import { FolderUploadProgress, useOpenFolder } from './open-folder';
import { OperationProgress } from '../operations/components/operation-progress';
import { useFollowLongWork } from '../operations/use-long-work';
import { type StartedLongWork, startLongWork } from '../operations/long-work';
import './exports.css';

type Listing = ChannelOutput<'exports:list'>;

/** The long work the page shows under its progress line: an export started or followed, or one opening. */
interface ShownRun {
  channel: 'exports:start' | 'exports:follow' | 'exports:open';
  requestId: string;
  title: string;
}
const exportId = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1);
const dataPrefix = (e: ExportStateView): string =>
  e.manifest ? e.manifest.replace(/manifest-summary\.json$/, 'data/') : (e.prefix ?? '');

function keysOf(opened: OpenedExportView, table?: KeySchema): KeySchema {
  const [pk, sk] = opened.keyAttributes;
  if (table && table.partitionKey.name === pk) return table;
  return {
    partitionKey: { name: pk ?? '', type: 'S' },
    ...(sk ? { sortKey: { name: sk, type: 'S' as const } } : {}),
  };
}

/**
 * The table's S3 exports: point-in-time recovery, past exports, a new export followed to its
 * end, an export opened as a read-only result set (read from S3, not from the table), and an
 * import from S3 into a new table.
 */
export function ExportsPage({ connection, table, description }: TableViewProps) {
  const [listing, setListing] = useState<Listing>();
  const [listError, setListError] = useState<AppError>();
  const [actionError, setActionError] = useState<AppError>();
  const [opened, setOpened] = useState<OpenResultSet & { sqlName: string }>();
  const [isOpenedShown, setOpenedShown] = useState(false);
  const [importing, setImporting] = useState<ImportDefaults>();
  const [lastBucket, setLastBucket] = useState('');
  const [isCopying, setCopying] = useState(false);
  const [run, setRun] = useState<ShownRun>();
  const [ended, setEnded] = useState<{ requestId: string; error?: AppError }>();
  const isRunning = run !== undefined && ended?.requestId !== run.requestId;
  const runError = run !== undefined && ended?.requestId === run.requestId ? ended.error : undefined;
  const isDesktop = useAppInfoStore((state) => state.info?.mode) === 'desktop';

  const load = useCallback(
    () =>
      call('exports:list', { connectionId: connection.id, table }).then((answer) => {
        if (answer.ok) {
          setListing(answer.value);
          setListError(undefined);
        } else setListError(answer.error);
      }),
    [connection.id, table],
  );

  useEffect(() => {
    void load();
  }, [load]);

  useFollowLongWork(run?.channel ?? 'exports:follow', run?.requestId, (ending) => {
    if (!run) return;
    setEnded({ requestId: run.requestId, ...(ending.type === 'failed' ? { error: ending.error } : {}) });
    // A finished run changes the list: an export's end, or the result set an opening made.
    if (ending.type === 'done') void load();
  });

  const enablePitr = async () => {
    setActionError(undefined);
    const answer = await call('exports:enablePitr', { connectionId: connection.id, table });
    if (answer.ok) void load();
    else setActionError(answer.error);
  };

  const startOpening = async (
    title: string,
    from: string,
    send: (requestId: string) => Promise<Envelope<{ started: boolean }>>,
  ) => {
    setActionError(undefined);
    const work: StartedLongWork = startLongWork('exports:open', send, {
      prefix: 'open',
      onStarted: () => setRun({ channel: 'exports:open', requestId: work.requestId, title }),
      onEnd: (ending) => {
        const o = ending.type === 'done' ? ending.value : undefined;
        if (o) {
          setOpened({
            resultSetId: o.resultSetId,
            title: `${o.name} · ${o.items.toLocaleString('en-US')} items ${from}`,
            keys: keysOf(o, description?.summary.keys),
            sqlName: o.name,
          });
          setOpenedShown(true);
        } else if (ending.type === 'failed' && ending.isRefused) setActionError(ending.error);
      },
    });
    await work.started;
  };

  const open = (e: ExportStateView) => {
    if (!e.bucket) return;
    const { bucket } = e;
    void startOpening(`Opening export ${exportId(e.exportArn)}`, 'from S3', (requestId) =>
      call('exports:open', {
        connectionId: connection.id,
        requestId,
        bucket,
        prefix: e.prefix ?? '',
        exportId: exportId(e.exportArn),
      }),
    );
  };

  const folder = useOpenFolder({
    connectionId: connection.id,
    isDesktop,
    startOpening,
    onError: setActionError,
  });
  const folderButton = (
    <Button size="sm" disabled={isRunning || folder.upload !== undefined} onClick={folder.open}>
      Open export folder…
    </Button>
  );
  const opening = (
    <>
      {folder.picker}
      {folder.upload ? <FolderUploadProgress state={folder.upload} onCancel={folder.cancel} /> : null}
      {folder.notice ? (
        <p className="exports-muted exports-opened" role="status">
          {folder.notice}
        </p>
      ) : null}
      {run && isRunning ? (
        <OperationProgress requestId={run.requestId} label={run.title} cancelLabel="Stop" />
      ) : null}
      {opened && isOpenedShown ? (
        <ResultSetDialog
          resultSetId={opened.resultSetId}
          title={opened.title}
          keys={opened.keys}
          onClose={() => setOpenedShown(false)}
        />
      ) : null}
      {opened && !isOpenedShown ? (
        // Closing the grid loses nothing: the result set stays, and SQL reads the export by name.
        <p className="exports-opened">
          Opened {opened.title}. SQL reads it as <code>export.&quot;{opened.sqlName}&quot;</code>.{' '}
          <Button size="sm" onClick={() => setOpenedShown(true)}>
            Show items
          </Button>
        </p>
      ) : null}
    </>
  );
  const pageProps = {
    className: folder.isDragging ? 'exports-page is-dropping' : 'exports-page',
    ...folder.dropTarget,
  };

  const follow = async (e: ExportStateView) => {
    const requestId = newRequestId('export');
    const answer = await call('exports:follow', {
      connectionId: connection.id,
      requestId,
      exportArn: e.exportArn,
    });
    if (answer.ok) setRun({ channel: 'exports:follow', requestId, title: `Export ${exportId(e.exportArn)}` });
    else setActionError(answer.error);
  };

  const keys = description?.summary.keys;
  const importDefaults = (e?: ExportStateView): ImportDefaults => ({
    bucket: e?.bucket ?? lastBucket,
    prefix: e ? dataPrefix(e) : '',
    table: `${table}-imported`,
    partitionKey: keys?.partitionKey ?? { name: 'pk', type: 'S' },
    ...(keys?.sortKey ? { sortKey: keys.sortKey } : {}),
  });

  // No S3 exports here (DynamoDB Local), but an export copied to this machine still opens.
  if (listError?.code === 'ExportsUnavailable')
    return (
      <div {...pageProps}>
        {/* Not a failure of the user's: a fact of this endpoint, with the way that does work. */}
        <p className="exports-unavailable">
          {listError.message}{' '}
          <Button size="sm" onClick={() => setCopying(true)}>
            Copy to…
          </Button>
        </p>
        {isCopying ? (
          <CopyDialog connection={connection} table={table} onClose={() => setCopying(false)} />
        ) : null}
        <header className="exports-header">
          <p className="exports-note">
            An export copied to this machine opens as a read-only result set: pick its folder
            {isDesktop ? '' : ', or drop it here'}.
          </p>
          <span className="toolbar-spacer" />
          {folderButton}
        </header>
        {actionError ? <ErrorMessage compact error={actionError} connectionId={connection.id} /> : null}
        {runError ? <ErrorMessage compact error={runError} connectionId={connection.id} /> : null}
        {opening}
      </div>
    );

  const exports = listing?.exports ?? [];
  const pitr = listing?.pitr;
  return (
    <div {...pageProps}>
      <header className="exports-header">
        <p className="exports-note">
          DynamoDB writes exports to S3 itself, from its point-in-time backups: no read capacity of {table} is
          used.
        </p>
        <span className="toolbar-spacer" />
        <Button size="sm" onClick={() => void load()}>
          Refresh exports
        </Button>
        <Button
          size="sm"
          onClick={() => setImporting(importDefaults(exports.findLast((e) => e.status === 'COMPLETED')))}
        >
          Import from S3…
        </Button>
        {folderButton}
      </header>
      {listError ? (
        <ErrorMessage error={listError} connectionId={connection.id} onRetry={() => void load()} />
      ) : null}
      {pitr ? (
        <p className="exports-pitr">
          Point-in-time recovery:{' '}
          {pitr.status === 'ENABLED' ? (
            <>
              <Badge tone="success">enabled</Badge> restorable from {formatDate(pitr.earliest)}
            </>
          ) : (
            <>
              <Badge tone="warning">off</Badge> exports need it.{' '}
              <Button size="sm" disabled={connection.readOnly} onClick={() => void enablePitr()}>
                Enable point-in-time recovery
              </Button>{' '}
              <span className="exports-muted">(billed per GB-month)</span>
            </>
          )}
        </p>
      ) : null}
      <ExportForm
        connection={connection}
        table={table}
        isDisabled={isRunning || pitr?.status !== 'ENABLED'}
        onStarted={(requestId, bucket) => {
          setLastBucket(bucket);
          setRun({ channel: 'exports:start', requestId, title: `Exporting ${table}` });
          void load();
        }}
      />
      {actionError ? <ErrorMessage compact error={actionError} connectionId={connection.id} /> : null}
      {runError ? <ErrorMessage compact error={runError} connectionId={connection.id} /> : null}
      {opening}
      <table className="exports-table" aria-label={`Exports of ${table}`}>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Type</th>
            <th scope="col">Started</th>
            <th scope="col">Items</th>
            <th scope="col">Billed size</th>
            <th scope="col">Location</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {exports.length === 0 ? (
            <tr>
              <td colSpan={7} className="exports-muted">
                {listing ? 'No exports of this table yet.' : 'Loading…'}
              </td>
            </tr>
          ) : null}
          {[...exports].reverse().map((e) => (
            <tr key={e.exportArn}>
              <td>
                <Badge
                  tone={e.status === 'COMPLETED' ? 'success' : e.status === 'FAILED' ? 'danger' : 'warning'}
                >
                  {e.status.toLowerCase().replace('_', ' ')}
                </Badge>
                {e.failure ? <span className="exports-muted"> {e.failure}</span> : null}
              </td>
              <td>{e.type === 'FULL_EXPORT' ? 'Full' : 'Incremental'}</td>
              <td>{formatDate(e.startTime)}</td>
              <td>{e.itemCount === undefined ? '—' : e.itemCount.toLocaleString('en-US')}</td>
              <td>{e.billedSizeBytes === undefined ? '—' : formatBytes(e.billedSizeBytes)}</td>
              <td className="exports-location">
                s3://{e.bucket}/{e.prefix ?? ''}
              </td>
              <td className="exports-actions">
                {e.status === 'COMPLETED' && e.type === 'FULL_EXPORT' ? (
                  <>
                    <Button
                      size="sm"
                      disabled={isRunning}
                      aria-label={`Open export ${exportId(e.exportArn)} as a result set`}
                      onClick={() => open(e)}
                    >
                      Open
                    </Button>
                    <Button
                      size="sm"
                      aria-label={`Import export ${exportId(e.exportArn)} into a new table`}
                      onClick={() => setImporting(importDefaults(e))}
                    >
                      Import…
                    </Button>
                  </>
                ) : null}
                {e.status === 'IN_PROGRESS' ? (
                  <Button size="sm" disabled={isRunning} onClick={() => void follow(e)}>
                    Follow
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {importing ? (
        <ImportDialog connection={connection} defaults={importing} onClose={() => setImporting(undefined)} />
      ) : null}
    </div>
  );
}
