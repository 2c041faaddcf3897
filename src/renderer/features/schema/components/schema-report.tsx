import type { SchemaReport } from '../../../../shared/ipc';
import { Badge } from '../../../ui/badge';
import { DesignDiagram } from './design-diagram';
import { KeyAdvicePanel } from './key-advice-panel';
import { ModelPanel } from './model-panel';
import type { PathActionHandlers } from './path-actions';
import { PathDetail } from './path-detail';
import { PathTable } from './path-table';
import { countOf } from '../../../ui/format';

interface SchemaReportViewProps {
  report: SchemaReport;
  entity: string;
  path?: string;
  onEntity(name: string): void;
  onPath(path: string | undefined): void;
  handlers: PathActionHandlers;
  /** The connection the advisor creates an index on. */
  connectionId: string;
}

const n = (v: number) => v.toLocaleString('en-US');

const WARNING_TITLES = {
  mixedTypes: 'Several types',
  isoAndEpoch: 'ISO next to epoch',
  dottedName: 'Dot in a top-level name',
  nearItemLimit: 'Near the 400 KB limit',
  keyShape: 'Key shape varies',
} as const;

/** How the read was drawn, its warnings, the entities, and every path of the chosen one. */
export function SchemaReportView({
  report,
  entity,
  path,
  onEntity,
  onPath,
  handlers,
  connectionId,
}: SchemaReportViewProps) {
  const shown = report.entities.find((e) => e.name === entity);
  const attributes = shown ? shown.attributes : report.attributes;
  const items = shown ? shown.items : report.itemsScanned;
  const detail = path ? attributes.find((a) => a.path === path) : undefined;
  const warnings = report.warnings.filter((w) => !shown || !w.entity || w.entity === shown.name);
  return (
    <>
      <section className="panel schema-summary-panel" aria-labelledby="schema-read-title">
        <h2 id="schema-read-title" className="panel-title">
          {report.sampled ? 'Sample' : report.complete ? 'Full scan' : 'Stopped full scan'}
          {report.index ? ` of index ${report.index}` : ''}
        </h2>
        <div className="mig-panel-body">
          <p className="schema-draw" data-testid="schema-draw">
            {report.draw.description}
          </p>
          {report.sampled && report.draw.segments.length < report.draw.totalSegments ? (
            <p className="muted schema-note">
              DynamoDB has no random read and a Scan's first page is one corner of the key space, so the
              sample is the first page of segments chosen at random out of many: spread over the whole table.
            </p>
          ) : null}
          {warnings.length > 0 ? (
            <ul className="schema-warnings" aria-label="Warnings">
              {warnings.map((w) => (
                <li key={`${w.kind}\u0000${w.path}\u0000${w.entity ?? ''}`}>
                  <Badge tone="warning">{WARNING_TITLES[w.kind]}</Badge>{' '}
                  {w.path ? (
                    <button type="button" className="link-button" onClick={() => onPath(w.path)}>
                      <code>{w.path}</code>
                    </button>
                  ) : null}{' '}
                  <span>{w.detail}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>
      <section className="panel" aria-labelledby="schema-paths-title">
        <div className="schema-entities" role="group" aria-label="Entities">
          <button type="button" className="schema-entity" aria-pressed={!shown} onClick={() => onEntity('')}>
            All items <span className="schema-entity-count">{n(report.itemsScanned)}</span>
          </button>
          {report.entities.map((e) => (
            <button
              key={e.name}
              type="button"
              className="schema-entity"
              aria-pressed={shown?.name === e.name}
              title={e.keyPattern}
              onClick={() => onEntity(e.name)}
            >
              {e.name} <span className="schema-entity-count">{n(e.items)}</span>
            </button>
          ))}
        </div>
        <h2 id="schema-paths-title" className="panel-title schema-paths-title">
          {shown ? shown.name : 'All items'}: {countOf(attributes.length, 'path')} in {countOf(items, 'item')}
          {shown ? <span className="muted schema-key-pattern">{shown.keyPattern}</span> : null}
        </h2>
        <div className={`schema-body${detail ? ' has-detail' : ''}`}>
          <div className="schema-table-wrap">
            <PathTable
              attributes={attributes}
              selected={detail?.path}
              onSelect={(p) => onPath(p === path ? undefined : p)}
              label={`Attribute paths of ${shown ? shown.name : 'all items'}`}
            />
          </div>
          {detail ? (
            <PathDetail
              attribute={detail}
              scope={{ report, entity: shown ? shown.name : '', path: detail.path }}
              handlers={handlers}
              onClose={() => onPath(undefined)}
            />
          ) : null}
        </div>
      </section>
      <KeyAdvicePanel report={report} connectionId={connectionId} />
      <ModelPanel report={report} entity={shown ? shown.name : ''} />
      {report.entities.length > 0 ? <DesignDiagram report={report} /> : null}
    </>
  );
}
