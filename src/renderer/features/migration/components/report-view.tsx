import { formatDate } from '../../../ui/format';
import type {
  DateAttributeFinding,
  DottedAttributeFinding,
  ExportFormat,
  MigrationReport,
  PlainKey,
} from '../../../../shared/ipc';
import { call } from '../../../ipc/client';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { AcknowledgementList, SettingAcknowledgement } from './acknowledgement';
import { ReleaseFindings } from './release-findings';
import { SampleKeys } from './sample-keys';
import { StackedBar } from './stacked-bar';
import { CapacityUnit } from '../../../ui/capacity-unit';

export interface SampleActions {
  /** Opens the item in the editor. */
  open(key: PlainKey): void;
  /** Shows the item's JSON beside the report. */
  peek(key: PlainKey): void;
}

interface ReportViewProps {
  connectionId: string;
  report: MigrationReport;
  samples: SampleActions;
}

function DottedCard({ finding, samples }: { finding: DottedAttributeFinding; samples: SampleActions }) {
  return (
    <article className="mig-card">
      <header className="mig-card-header">
        <code className="mig-name">{finding.name}</code>
        <span className="muted">
          {finding.items.toLocaleString('en-US')} {finding.items === 1 ? 'item' : 'items'}
        </span>
        <Badge tone="danger">fix</Badge>
      </header>
      <StackedBar
        label={`${finding.name}: how the top-level value compares with the nested path`}
        parts={[
          { label: 'Differs from nested', value: finding.differsFromNested, tone: 'danger' },
          { label: 'No nested value', value: finding.parentMissing, tone: 'warning' },
          { label: 'Same as nested', value: finding.sameAsNested, tone: 'success' },
        ]}
      />
      {finding.parentNotMap > 0 ? (
        <p className="mig-note">
          {finding.parentNotMap === 1
            ? 'One item has'
            : `${finding.parentNotMap.toLocaleString('en-US')} items have`}{' '}
          a parent that is not a map: the fix lists {finding.parentNotMap === 1 ? 'it' : 'them'} for review.
        </p>
      ) : null}
      <SampleKeys keys={finding.sampleKeys} onOpen={samples.open} onPeek={samples.peek} />
    </article>
  );
}

interface DateCardProps {
  connectionId: string;
  table: string;
  finding: DateAttributeFinding;
  samples: SampleActions;
}

function DateCard({ connectionId, table, finding, samples }: DateCardProps) {
  return (
    <article className="mig-card">
      <header className="mig-card-header">
        <code className="mig-name">{finding.path}</code>
        {finding.mixed ? (
          <Badge tone="danger">mixed</Badge>
        ) : finding.iso > 0 ? (
          <Badge tone="warning">setting</Badge>
        ) : (
          <Badge tone="muted">ok</Badge>
        )}
        {finding.isKey ? <Badge tone="accent">table key</Badge> : null}
        {finding.indexKeyOf.length > 0 ? (
          <Badge tone="accent">key of {finding.indexKeyOf.join(', ')}</Badge>
        ) : null}
      </header>
      <StackedBar
        label={`${finding.path}: Date storage`}
        parts={[
          {
            label: finding.isoDateOnly > 0 ? `ISO (${finding.isoDateOnly} date-only)` : 'ISO strings',
            value: finding.iso,
            tone: 'warning',
          },
          { label: 'Epoch ms', value: finding.epochMillis, tone: 'accent' },
          { label: 'Epoch s', value: finding.epochSeconds, tone: 'muted' },
        ]}
      />
      <SettingAcknowledgement connectionId={connectionId} table={table} finding={finding} />
      <SampleKeys keys={finding.sampleKeys} onOpen={samples.open} onPeek={samples.peek} />
    </article>
  );
}

async function exportAs(scanId: string, format: ExportFormat): Promise<void> {
  const envelope = await call('migration:export', { scanId, format });
  if (envelope.ok) downloadText(envelope.value.fileName, envelope.value.mimeType, envelope.value.content);
}

/** The report page: verdict first, then one chart per finding, samples one click away. */
export function ReportView({ connectionId, report, samples }: ReportViewProps) {
  const { verdict } = report;
  return (
    <section className="mig-report" aria-labelledby="mig-report-title">
      <header className="mig-report-header">
        <h2 id="mig-report-title" className="mig-report-title">
          Report <span className="muted">{formatDate(report.finishedAt)}</span>
        </h2>
        <span className="toolbar-spacer" />
        {(['json', 'csv', 'md'] as const).map((format) => (
          <Button key={format} size="sm" onClick={() => void exportAs(report.scanId, format)}>
            {format === 'md' ? 'Markdown' : format.toUpperCase()}
          </Button>
        ))}
      </header>
      <div
        className={`notice mig-verdict ${verdict.needsFix ? 'is-fix' : verdict.settings.length > 0 ? 'is-setting' : 'is-ready'}`}
        role="status"
      >
        <p>{verdict.line}</p>
      </div>
      <p className="muted mig-stats">
        {report.itemsScanned.toLocaleString('en-US')} items scanned of about{' '}
        {report.tableItemCount.toLocaleString('en-US')} ·{' '}
        {report.consumedReadCapacity.toLocaleString('en-US')} <CapacityUnit unit="RCU" /> · {report.segments}{' '}
        parallel readers
        {report.throttledRequests
          ? ` · throttled ${report.throttledRequests.toLocaleString('en-US')}× (slowed and retried)`
          : ''}
        {report.complete ? '' : ' · partial (cancelled or failed): resume to finish'}
      </p>
      <h3 className="mig-section-title">
        Dotted attribute names{' '}
        {report.dottedAttributes.length > 0 ? (
          <span className="muted">{report.dottedAttributes.length}</span>
        ) : null}
      </h3>
      {report.dottedAttributes.length === 0 ? (
        <p className="muted">No top-level attribute name contains a dot.</p>
      ) : null}
      <div className="mig-cards">
        {report.dottedAttributes.map((finding) => (
          <DottedCard key={finding.name} finding={finding} samples={samples} />
        ))}
      </div>
      <h3 className="mig-section-title">
        Date storage{' '}
        {report.dateAttributes.length > 0 ? (
          <span className="muted">{report.dateAttributes.length}</span>
        ) : null}
      </h3>
      {report.dateAttributes.length === 0 ? (
        <p className="muted">
          No attribute holds ISO-8601 strings, and no time-named attribute holds epoch numbers.
        </p>
      ) : null}
      <div className="mig-cards">
        {report.dateAttributes.map((finding) => (
          <DateCard
            key={finding.path}
            connectionId={connectionId}
            table={report.table}
            finding={finding}
            samples={samples}
          />
        ))}
      </div>
      <ReleaseFindings report={report} onOpen={samples.open} onPeek={samples.peek} />
      <AcknowledgementList connectionId={connectionId} table={report.table} />
    </section>
  );
}
