import { useId } from 'react';
import type { PlainKey } from '../../../../shared/ipc';
import type { Conformance, DynamooseReview } from '../../../../shared/ipc/migration-dynamoose';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { SampleKeys } from './sample-keys';

interface DynamooseReviewProps {
  /** The file's review as kept (notes, behaviours, model) — no conformance before a scan. */
  review: DynamooseReview;
  /** The open report's review of the same file, with conformance; absent before a scan with it. */
  scanned?: DynamooseReview;
  onOpen(key: PlainKey): void;
  onPeek(key: PlainKey): void;
}

const storedText = (stored: Record<string, number>) =>
  Object.entries(stored)
    .map(([tag, n]) => `${tag} ${n.toLocaleString('en-US')}`)
    .join(', ');

function datesText(row: Conformance): string {
  if (!row.dates) return '';
  const parts = [
    ['ISO', row.dates.iso],
    ['epoch ms', row.dates.millis],
    ['epoch s', row.dates.seconds],
    ['other', row.dates.other],
  ] as const;
  return parts
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${label} ${n.toLocaleString('en-US')}`)
    .join(', ');
}

function ConformanceTable({
  rows,
  onOpen,
  onPeek,
}: { rows: Conformance[] } & Pick<DynamooseReviewProps, 'onOpen' | 'onPeek'>) {
  return (
    // Focusable: a keyboard user scrolls it sideways at a narrow width.
    <div className="mig-dyn-scroll" tabIndex={0} role="group" aria-label="Conformance, scrollable">
      <table className="data-table is-compact mig-dyn-table" aria-label="Conformance per attribute">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Attribute</th>
            <th scope="col">Declared</th>
            <th scope="col">Present</th>
            <th scope="col">Stored</th>
            <th scope="col">Conforms</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.model}\u0000${row.path}`} className={row.problem ? 'is-problem' : undefined}>
              <td>{row.model}</td>
              <td>
                <code>{row.path}</code>
              </td>
              <td>
                {row.declared}
                {row.required ? <span className="muted"> · required</span> : null}
              </td>
              <td className="mig-num">
                {row.present.toLocaleString('en-US')} / {row.items.toLocaleString('en-US')}
              </td>
              <td>
                {storedText(row.stored) || <span className="muted">nothing</span>}
                {row.dates ? <div className="muted">Dates: {datesText(row)}</div> : null}
              </td>
              <td>
                {row.problem ? (
                  <>
                    <Badge tone="danger">no</Badge> {row.problem}
                    <SampleKeys keys={row.sampleKeys} onOpen={onOpen} onPeek={onPeek} />
                  </>
                ) : (
                  <Badge tone="success">yes</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What the team's dynamoose schema file means for the move (issue 29 item 2): how the items
 * conform to what it declares, the settings that change what the data means with what the
 * dynotable-orm model must say, the behaviours that change, and the model generated to say it.
 */
export function DynamooseReviewPanel({ review, scanned, onOpen, onPeek }: DynamooseReviewProps) {
  const titleId = useId();
  const conformance = scanned?.conformance ?? [];
  const problems = conformance.filter((c) => c.problem).length;
  const model = review.ormModel ?? scanned?.ormModel;
  const unread = review.models.flatMap((m) => m.unread.map((u) => `${m.name}: ${u}`));
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel-title">
        dynamoose schema review <span className="muted">{review.file}</span>
      </h2>
      <div className="mig-panel-body mig-dyn-body">
        <h3 className="mig-section-title">
          Conformance per attribute{' '}
          {scanned ? (
            <span className="muted">
              {problems === 0
                ? 'every attribute conforms'
                : `${problems} of ${conformance.length} do not conform`}
            </span>
          ) : null}
        </h3>
        {scanned ? (
          conformance.length > 0 ? (
            <ConformanceTable rows={conformance} onOpen={onOpen} onPeek={onPeek} />
          ) : (
            <p className="muted">No item holds the names these models declare.</p>
          )
        ) : (
          <p className="muted">
            Scan the table to hold the items against what the file declares: each attribute&apos;s declared
            type against the stored types, required against present, and a Date&apos;s declared storage
            against what is stored.
          </p>
        )}
        <h3 className="mig-section-title">
          Settings that change what the data means <span className="muted">{review.notes.length}</span>
        </h3>
        {review.notes.length === 0 ? (
          <p className="muted">
            None: the stored names, types and Dates are what the new ORM reads by default.
          </p>
        ) : (
          <div className="mig-dyn-scroll" tabIndex={0} role="group" aria-label="Settings, scrollable">
            <table className="data-table is-compact mig-dyn-table" aria-label="Settings that change meaning">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Setting</th>
                  <th scope="col">What dynamoose did</th>
                  <th scope="col">What the dynotable-orm model must say</th>
                </tr>
              </thead>
              <tbody>
                {review.notes.map((note, i) => (
                  <tr key={`${note.model}\u0000${note.setting}\u0000${note.path}\u0000${i}`}>
                    <td>{note.model}</td>
                    <td>
                      <strong>{note.setting}</strong>
                      {note.path ? (
                        <>
                          {' '}
                          <code>{note.path}</code>
                        </>
                      ) : null}
                    </td>
                    <td>{note.meaning}</td>
                    <td>{note.ormSays}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h3 className="mig-section-title">Behaviours that change</h3>
        <ul className="mig-dyn-behaviours">
          {review.behaviours.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
        {unread.length > 0 ? (
          <p className="notice notice-warning">
            Not read (not a literal in the file, so not guessed): {unread.join('; ')}.
          </p>
        ) : null}
        {model ? (
          <details className="mig-requests mig-dyn-model">
            <summary>The dynotable-orm model that reads this data</summary>
            <div className="mig-fix-actions">
              <Button
                size="sm"
                onClick={() =>
                  downloadText(`${review.file.replace(/\.[^.]*$/, '')}.orm.ts`, 'text/typescript', model)
                }
              >
                Save to a file
              </Button>
              <span className="muted">
                Give it to the pre-flight as the dynotable-orm model to count its Date storage.
              </span>
            </div>
            <pre className="code-block" tabIndex={0} aria-label="Generated dynotable-orm model">
              {model}
            </pre>
          </details>
        ) : null}
      </div>
    </section>
  );
}
