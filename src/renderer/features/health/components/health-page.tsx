import { useEffect, useState } from 'react';
import { formatDate } from '../../../ui/format';
import type { HealthReport, HealthSeverity, HealthWindow } from '../../../../shared/ipc/health';
import { formatBytes } from '../../../../shared/dynamo/item-size';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import type { TableViewProps } from '../../table/tabs';
import { OperationProgress } from '../../operations/components/operation-progress';
import { useHealthStore, useHealthView } from '../store';
import { capacityLines } from './capacity-series';
import { BarChart, LineChart } from './charts';
import { FindingAction } from './finding-action';
import '../../migration/migration.css';
import '../health.css';

const TONE: Record<HealthSeverity, 'danger' | 'warning' | 'neutral'> = {
  critical: 'danger',
  warning: 'warning',
  info: 'neutral',
};
const usd = (n: number) => (n > 0 && n < 0.01 ? '< $0.01' : `$${n.toFixed(2)}`);
const pct = (n: number) => `${(n * 100).toFixed(n < 0.1 ? 1 : 0)}%`;

/** The Health tab: findings about keys, item sizes, TTL, indexes and cost, each with its evidence and one action. */
export function HealthPage({ connection, table, description }: TableViewProps) {
  const view = useHealthView(connection.id, table);
  const [mode, setMode] = useState<'sample' | 'full'>('sample');
  const [window, setWindow] = useState<HealthWindow>('24h');
  const report = view.report;
  const keys = description?.summary.keys;
  useEffect(() => {
    void useHealthStore.getState().loadLast(connection.id, table);
  }, [connection.id, table]);
  return (
    <div className="mig-page health-page">
      <div className="mig-main">
        <section className="panel" aria-labelledby="health-title">
          <h2 id="health-title" className="panel-title">
            Health
          </h2>
          <div className="mig-panel-body">
            <p className="muted mig-intro">
              Hot partition keys, items near 400 KB, TTL values DynamoDB will never expire, indexes written
              but never read, and what the table costs — from a read of its items plus CloudWatch.
            </p>
            <div className="health-controls">
              <label className="mig-control">
                <span className="field-label">Read</span>
                <select
                  className="input"
                  value={mode}
                  onChange={(e) => setMode(e.target.value as 'sample' | 'full')}
                >
                  <option value="sample">Sample (about 1,000 items)</option>
                  <option value="full">Full scan</option>
                </select>
              </label>
              <label className="mig-control">
                <span className="field-label">CloudWatch window</span>
                <select
                  className="input"
                  value={window}
                  onChange={(e) => setWindow(e.target.value as HealthWindow)}
                >
                  <option value="3h">Last 3 hours</option>
                  <option value="24h">Last 24 hours</option>
                  <option value="7d">Last 7 days</option>
                  <option value="30d">Last 30 days</option>
                </select>
              </label>
              <Button
                variant="primary"
                isBusy={Boolean(view.requestId) && !view.error}
                onClick={() => void useHealthStore.getState().check(connection.id, table, mode, window)}
              >
                {report ? 'Run again' : 'Check health'}
              </Button>
            </div>
            {report && !view.requestId ? (
              <p className="muted health-checked">
                Last checked <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time> (
                {report.draw.mode === 'full' ? 'full scan' : 'sample'}, CloudWatch {report.cloudWatch.window}
                ).
              </p>
            ) : null}
            {view.requestId && !view.error ? (
              <OperationProgress requestId={view.requestId} label="Checking" />
            ) : null}
            {view.error ? <ErrorMessage compact error={view.error} connectionId={connection.id} /> : null}
            {!report && !view.requestId ? (
              <p className="muted health-checked">
                No check yet: Check health reads{' '}
                {mode === 'full' ? 'every item of the table' : 'about 1,000 items spread over the table'} and
                the window&apos;s CloudWatch figures, and changes nothing.
              </p>
            ) : null}
          </div>
        </section>
        {report && keys ? (
          <HealthReportView report={report} connectionId={connection.id} keys={keys} />
        ) : null}
      </div>
    </div>
  );
}

function HealthReportView({
  report,
  connectionId,
  keys,
}: {
  report: HealthReport;
  connectionId: string;
  keys: NonNullable<TableViewProps['description']>['summary']['keys'];
}) {
  const reads = capacityLines(report, 'Read');
  const writes = capacityLines(report, 'Write');
  const minutes = report.cloudWatch.periodSeconds / 60;
  const period = minutes < 60 ? `${minutes}-minute` : `${minutes / 60}-hour`;
  return (
    <>
      <p className="muted health-draw">{report.draw.description}</p>
      {report.cloudWatch.state === 'unreachable' ? (
        <p className="health-notice" role="note">
          <strong>CloudWatch unreachable.</strong> {report.cloudWatch.message}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="health-findings">
        <h2 id="health-findings" className="panel-title">
          Findings ({report.findings.length})
        </h2>
        {report.findings.length === 0 ? (
          <p className="panel-empty">Nothing to fix in what was read.</p>
        ) : null}
        <ul className="health-findings">
          {report.findings.map((f) => (
            <li key={f.id} className="health-finding">
              <div className="health-finding-head">
                <Badge tone={TONE[f.severity]}>{f.severity}</Badge>
                <h3 className="health-finding-title">{f.title}</h3>
                {f.monthlySavings !== undefined ? (
                  <span className="health-savings">saves about {usd(f.monthlySavings)}/month</span>
                ) : null}
              </div>
              <p className="health-evidence">{f.evidence}</p>
              {f.action ? (
                <FindingAction
                  action={f.action}
                  connectionId={connectionId}
                  table={report.table}
                  keys={keys}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section className="panel health-charts" aria-labelledby="health-figures">
        <h2 id="health-figures" className="panel-title">
          Figures
        </h2>
        <div className="health-chart-grid">
          <BarChart
            title={`Top partition keys by share of items (${report.keys.distinctPartitionKeys.toLocaleString('en-US')} distinct)`}
            columns={['Partition key', 'Share of items']}
            rows={report.keys.top.map((k, i) => ({
              label: k.key,
              value: k.itemShare,
              text: pct(k.itemShare),
              tone: i === 0 && k.itemShare >= 0.2 ? 'danger' : 'accent',
            }))}
          />
          <BarChart
            title="Item sizes"
            columns={['Size', 'Items']}
            rows={report.sizes.histogram.map((b, i, all) => ({
              label: i === all.length - 1 ? `≥ ${formatBytes(b.from)}` : `< ${formatBytes(b.to + 1)}`,
              value: b.items,
              text: b.items.toLocaleString('en-US'),
              tone: i === all.length - 1 ? 'danger' : 'accent',
            }))}
          />
          {reads.length > 0 ? (
            <LineChart
              title={`Read capacity per ${period} period`}
              unit="read capacity units or requests"
              series={reads}
            />
          ) : null}
          {writes.length > 0 ? (
            <LineChart
              title={`Write capacity per ${period} period`}
              unit="write capacity units or requests"
              series={writes}
            />
          ) : null}
        </div>
        <table className="data-table health-table">
          <caption className="health-caption">Item sizes by entity</caption>
          <thead>
            <tr>
              <th scope="col">Entity</th>
              <th scope="col">Items</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
              <th scope="col">Max</th>
            </tr>
          </thead>
          <tbody>
            {report.sizes.entities.map((e) => (
              <tr key={e.entity}>
                <th scope="row">{e.entity}</th>
                <td>{e.items.toLocaleString('en-US')}</td>
                <td>{formatBytes(e.p50)}</td>
                <td>{formatBytes(e.p95)}</td>
                <td>{formatBytes(e.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="health-cost">
          <strong>Cost{report.cost.region ? ` (${report.cost.region})` : ''}:</strong>{' '}
          {report.cost.storageMonthly !== undefined
            ? `storage ${usd(report.cost.storageMonthly)}/month`
            : 'not estimated'}
          {report.cost.onDemandMonthly !== undefined && report.cost.provisionedMonthly !== undefined
            ? `; at this window's traffic on-demand ${usd(report.cost.onDemandMonthly)}, provisioned ${usd(report.cost.provisionedMonthly)} a month (${report.cost.billingMode === 'PAY_PER_REQUEST' ? 'now on-demand' : 'now provisioned'}).`
            : '.'}{' '}
          <span className="muted">{report.cost.prices}</span>
        </p>
      </section>
    </>
  );
}
