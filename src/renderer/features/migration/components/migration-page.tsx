import { useEffect, useState } from 'react';
import type { PlainKey } from '../../../../shared/ipc';
import { ErrorMessage } from '../../../ui/error-message';
import { hasTableView, type TableViewProps } from '../../table/tabs';
import { useEditorStore } from '../../editor/store';
import { useWorkspaceStore } from '../../workspace/store';
import { taggedKey } from '../keys';
import { useSettleOnEnd } from '../hooks';
import { useMigrationStore, useMigrationTable } from '../store';
import { DynamooseFile } from './dynamoose-file';
import { DynamooseReviewPanel } from './dynamoose-review';
import { FixPanel, REWRITABLE } from './fix-panel';
import { ItemPanel } from './item-panel';
import { ModelFile } from './model-file';
import { OperationProgress, readCost } from '../../operations/components/operation-progress';
import { ReportView } from './report-view';
import { ScanControls } from './scan-controls';
import { ScanList } from './scan-list';
import '../migration.css';

/** The migration pre-flight of one table: scan, report, fix. */
export function MigrationPage({ connection, table, description }: TableViewProps) {
  const state = useMigrationTable(connection.id, table);
  const loadScans = useMigrationStore((s) => s.loadScans);
  const loadAcknowledgements = useMigrationStore((s) => s.loadAcknowledgements);
  const clearError = useMigrationStore((s) => s.clearError);
  const [openKey, setOpenKey] = useState<PlainKey>();
  useEffect(() => {
    void loadScans(connection.id, table);
    void loadAcknowledgements(connection.id, table);
  }, [connection.id, table, loadScans, loadAcknowledgements]);
  useSettleOnEnd(connection.id, table, state.scanRequestId, 'scan');
  const resumable = state.scans.find((s) => s.state === 'cancelled' || s.state === 'failed');
  const report = state.report;
  // The kept file's review (shown before any scan); else the open report's, made with a file since removed.
  const review = state.dynamoose?.review ?? report?.dynamoose;
  const samples = {
    open: (key: PlainKey) => {
      // One click: the item editor in the Items view (the report stays here, one tab away).
      // Read at click time: tabs.ts registers this page, so it is loaded by then.
      if (!report || !hasTableView('items')) {
        setOpenKey(key);
        return;
      }
      const target = { connectionId: connection.id, table, keys: report.keys };
      const editor = useEditorStore.getState();
      editor.guard(() => {
        void editor.openItem(target, taggedKey(key, report.keys));
        useWorkspaceStore.getState().setTableView(table, 'items');
      }, target);
    },
    peek: setOpenKey,
  };

  return (
    <div className={`mig-page${openKey ? ' has-panel' : ''}`}>
      <div className="mig-main">
        <section className="panel" aria-labelledby="mig-scan-title">
          <h2 id="mig-scan-title" className="panel-title">
            Migration pre-flight
          </h2>
          <div className="mig-panel-body">
            <p className="muted mig-intro">
              Before moving off dynamoose: finds top-level attributes named like <code>a.b</code> (how
              dynamoose 4.x writes nested updates) and Dates stored as ISO strings next to epoch numbers, in
              every item.
            </p>
            <ScanControls
              connection={connection}
              table={table}
              isProvisioned={description?.summary.billingMode === 'PROVISIONED'}
              resumable={state.scanRequestId ? undefined : resumable}
              isBusy={Boolean(state.scanRequestId)}
            />
            {state.scanRequestId ? (
              <OperationProgress requestId={state.scanRequestId} label="Scanning" numbers={readCost} />
            ) : null}
            {state.error ? (
              <div onClick={() => clearError(connection.id, table)}>
                <ErrorMessage compact error={state.error} connectionId={connection.id} />
              </div>
            ) : null}
            <ModelFile connectionId={connection.id} table={table} />
            <DynamooseFile connectionId={connection.id} table={table} />
            <ScanList
              connectionId={connection.id}
              table={table}
              scans={state.scans}
              selectedScanId={state.selectedScanId}
            />
          </div>
        </section>
        {report ? <ReportView connectionId={connection.id} report={report} samples={samples} /> : null}
        {review ? (
          <DynamooseReviewPanel
            review={review}
            scanned={report?.dynamoose?.file === review.file ? report.dynamoose : undefined}
            onOpen={samples.open}
            onPeek={samples.peek}
          />
        ) : null}
        {report &&
        report.complete &&
        (report.dottedAttributes.length > 0 ||
          report.dateAttributes.some((d) => d.iso > 0) ||
          (report.findings ?? []).some((f) => REWRITABLE.has(f.kind))) ? (
          <FixPanel connection={connection} table={table} report={report} />
        ) : null}
      </div>
      {openKey && report ? (
        <ItemPanel
          connectionId={connection.id}
          table={table}
          keys={report.keys}
          itemKey={openKey}
          onClose={() => setOpenKey(undefined)}
        />
      ) : null}
    </div>
  );
}
