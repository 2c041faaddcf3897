import type { SqlResultSummary } from '../../../../shared/ipc/sql';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { useSqlStore, useSqlTab } from '../store';
import { ResultChart } from './result-chart';
import { ResultGrid } from './result-grid';

function age(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return seconds < 60
    ? `${seconds} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round(seconds / 3600)} h`;
}

/** The last result: counts, where the data came from (and how old it is), grid, chart, export. */
export function ResultsPanel({ connectionId, summary }: { connectionId: string; summary: SqlResultSummary }) {
  const tab = useSqlTab(connectionId);
  const update = useSqlStore((state) => state.update);
  const capacity = summary.fetches.reduce((sum, f) => sum + f.consumedCapacity, 0);
  const cached = summary.fetches.filter((f) => f.cached);
  const isChartable = summary.grouped && summary.total > 0 && summary.columnTypes.includes('N');
  const exportAs = async (format: 'csv' | 'json') => {
    const result = await call('sql:export', { resultId: summary.resultId, format });
    if (result.ok)
      downloadText(
        result.value.fileName,
        format === 'csv' ? 'text/csv' : 'application/json',
        result.value.content,
      );
  };
  return (
    <div className="sql-result">
      <div className="sql-result-bar">
        <span>
          <strong>{summary.total.toLocaleString('en-US')}</strong> row{summary.total === 1 ? '' : 's'} ·{' '}
          {(summary.elapsedMs / 1000).toFixed(2)} s ·{' '}
          {summary.fetches
            .map(
              (f) =>
                `${f.operation} ${f.table}: ${f.items.toLocaleString('en-US')} item${f.items === 1 ? '' : 's'}`,
            )
            .join(', ') || 'no reads'}
          {capacity > 0 ? ` · ${capacity.toLocaleString('en-US')} RCU` : ''}
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
              onClick={() => update(connectionId, { isChartHidden: !tab.isChartHidden })}
            >
              {tab.isChartHidden ? 'Show chart' : 'Hide chart'}
            </Button>
          ) : null}
          <Button size="sm" onClick={() => void exportAs('csv')}>
            Export CSV
          </Button>
          <Button size="sm" onClick={() => void exportAs('json')}>
            Export JSON
          </Button>
        </span>
      </div>
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
        />
        {isChartable && !tab.isChartHidden ? (
          <ResultChart
            summary={summary}
            kind={tab.chartKind}
            onKind={(chartKind) => update(connectionId, { chartKind })}
          />
        ) : null}
      </div>
    </div>
  );
}
