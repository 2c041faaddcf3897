import type { MigrationFinding, MigrationReport, PlainKey } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { SampleKeys } from './sample-keys';

interface SampleProps {
  onOpen(key: PlainKey): void;
  onPeek(key: PlainKey): void;
}

function FindingCard({ finding, onOpen, onPeek }: SampleProps & { finding: MigrationFinding }) {
  return (
    <article className="mig-card">
      <header className="mig-card-header">
        <code className="mig-name">{finding.path}</code>
        <span className="muted">
          {finding.kind}
          {finding.entity === null ? '' : ` · ${finding.entity}`} · {finding.items.toLocaleString('en-US')}{' '}
          {finding.items === 1 ? 'item' : 'items'}
        </span>
        {finding.isDataFix ? <Badge tone="danger">fix</Badge> : <Badge tone="warning">setting</Badge>}
      </header>
      <p className="mig-note">{finding.detail}</p>
      <p className="mig-note">{finding.fix}</p>
      <SampleKeys keys={finding.sampleKeys} onOpen={onOpen} onPeek={onPeek} />
    </article>
  );
}

/**
 * What older dynamoose releases left (report.findings), one card per kind, path and entity,
 * in the report's order. Reports made before these findings existed have none to show.
 */
export function ReleaseFindings({ report, onOpen, onPeek }: SampleProps & { report: MigrationReport }) {
  const findings = report.findings ?? [];
  return (
    <>
      <h3 className="mig-section-title">
        Left by older dynamoose releases{' '}
        {findings.length > 0 ? <span className="muted">{findings.length}</span> : null}
      </h3>
      {findings.length === 0 ? (
        <p className="muted">
          {report.findings === undefined
            ? 'This report was made before these checks existed: scan again to run them.'
            : 'No strings for booleans, JSON text, set and list mixes, TTL problems, lost dates, upsert residue or dotted map keys.'}
        </p>
      ) : null}
      <div className="mig-cards">
        {findings.map((finding) => (
          <FindingCard
            key={`${finding.kind}\u0000${finding.entity ?? ''}\u0000${finding.path}`}
            finding={finding}
            onOpen={onOpen}
            onPeek={onPeek}
          />
        ))}
      </div>
    </>
  );
}
