import type { Item } from '../../../../shared/dynamo/attribute-value';
import type { SqlResultSummary } from '../../../../shared/ipc/sql';
import { Button } from '../../../ui/button';
import { useEditorStore } from '../../editor/store';
import { useWorkspaceStore } from '../../workspace/store';
import { emptyResultNote } from '../empty-result';
import { useSqlRun, useSqlStore } from '../store';
import { ResultChart } from './result-chart';
import { useResultExport } from './result-export';
import { ResultGrid } from './result-grid';
import { StaleNote } from './stale-note';
import { CapacityUnit } from '../../../ui/capacity-unit';

/** One click: the item in the editor, in its table's Items view (the results stay in this tab). */
function openSourceItem(connectionId: string, source: NonNullable<SqlResultSummary['source']>, key: Item) {
  const target = { connectionId, table: source.table, keys: source.keys };
  const editor = useEditorStore.getState();
  editor.guard(() => {
    void editor.openItem(target, key);
    const workspace = useWorkspaceStore.getState();
    workspace.openTable(source.table);
    workspace.setTableView(source.table, 'items');
  }, target);
}

function age(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return seconds < 60
    ? `${seconds} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round(seconds / 3600)} h`;
}

/** The last result: counts, where the data came from (and how old it is), grid, chart, export. */
export function ResultsPanel({
  connectionId,
  tabId,
  summary,
}: {
  connectionId: string;
  tabId: string;
  summary: SqlResultSummary;
}) {
  const tab = useSqlRun(tabId);
  const update = useSqlStore((state) => state.updateRun);
  const { source } = summary;
  const capacity = summary.fetches.reduce((sum, f) => sum + f.consumedCapacity, 0);
  const cached = summary.fetches.filter((f) => f.cached);
  // A chart needs a label column beside a number: `SELECT COUNT(*)` alone is one value, not a chart.
  const isChartable =
    summary.grouped && summary.total > 0 && summary.columns.length > 1 && summary.columnTypes.includes('N');
  const exporting = useResultExport(summary.resultId);
  const empty = emptyResultNote(summary);
  return (
    <div className={`sql-result${tab.isResultStale ? ' is-stale' : ''}`}>
      {tab.isResultStale ? (
        <StaleNote>
          These results are from an earlier run: the last statement failed (see the error above).
        </StaleNote>
      ) : null}
      <div className="sql-result-bar">
        <span>
          <strong>{summary.total.toLocaleString('en-US')}</strong> row{summary.total === 1 ? '' : 's'} ·{' '}
          {(summary.elapsedMs / 1000).toFixed(2)} s ·{' '}
          {summary.athena
            ? `Amazon Athena: ${(summary.athena.dataScannedBytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB scanned · $${summary.athena.costUsd.toFixed(4)} · query ${summary.athena.queryExecutionId}`
            : summary.fetches
                .map(
                  (f) =>
                    `${f.operation} ${f.table}: ${f.items.toLocaleString('en-US')} item${f.items === 1 ? '' : 's'}`,
                )
                .join(', ') || 'no reads'}
          {capacity > 0 ? (
            <>
              {' '}
              · {capacity.toLocaleString('en-US')} <CapacityUnit unit="RCU" />
            </>
          ) : null}
          {cached.length > 0 ? (
            <span className="sql-cached">
              {' '}
              cached data, {age(cached[0]!.fetchedAt)} old (tick Refresh data to read again)
            </span>
          ) : null}
        </span>
        <span className="sql-result-actions">
          {isChartable ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => update(tabId, { isChartHidden: !tab.isChartHidden })}
            >
              {tab.isChartHidden ? 'Show chart' : 'Hide chart'}
            </Button>
          ) : null}
          {exporting.controls}
        </span>
      </div>
      {exporting.status}
      {empty ? (
        <p className="sql-faint sql-note" role="status">
          {empty}
        </p>
      ) : null}
      {summary.warnings.map((warning) => (
        <p key={warning} className="sql-warning" role="note">
          {warning}
        </p>
      ))}
      <div className={`sql-result-body${isChartable && !tab.isChartHidden ? ' has-chart' : ''}`}>
        <ResultGrid
          key={summary.resultId}
          resultId={summary.resultId}
          total={summary.total}
          columns={summary.columns}
          columnTypes={summary.columnTypes}
          source={source?.table}
          onOpenRow={source ? (key) => openSourceItem(connectionId, source, key) : undefined}
        />
        {isChartable && !tab.isChartHidden ? (
          <ResultChart
            summary={summary}
            kind={tab.chartKind}
            onKind={(chartKind) => update(tabId, { chartKind })}
          />
        ) : null}
      </div>
    </div>
  );
}
