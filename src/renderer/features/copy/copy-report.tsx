import type { CopyReport } from '../../../shared/ipc/copy';
import { CopyCounts } from './copy-fields';

const keyText = (key: Record<string, unknown>): string => JSON.stringify(key);

/** How a copy ended: counts, whether both sides agree, and the items that failed, each by key. */
export function CopyReportView({ report }: { report: CopyReport }) {
  const v = report.verified;
  return (
    <div className="copy-progress" role="status">
      <p>
        Copied {report.source.table} to <strong>{report.target.table}</strong>
        {report.created ? ' (created)' : ''}.
      </p>
      <CopyCounts
        read={report.itemsRead}
        written={report.itemsWritten}
        skipped={report.itemsSkipped}
        failed={report.itemsFailed}
      />
      {v ? (
        <p className={v.checksumsMatch ? 'copy-ok' : 'copy-warning'}>
          {v.checksumsMatch
            ? `Verified: both sides hold the same ${v.sourceCount.toLocaleString('en-US')} items (checksum ${v.sourceChecksum}).`
            : `The sides differ: the source has ${v.sourceCount.toLocaleString('en-US')} items, the target ${v.targetCount.toLocaleString('en-US')} of them; checksums ${v.sourceChecksum} and ${v.targetChecksum}.`}
        </p>
      ) : null}
      {v && v.differingKeys.length > 0 ? (
        <details>
          <summary>{v.differingKeys.length} differing keys</summary>
          <ul className="copy-keys">
            {v.differingKeys.map((key) => (
              <li key={keyText(key)}>
                <code>{keyText(key)}</code>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {report.failures.length > 0 ? (
        <details open>
          <summary>{report.failures.length} failed items</summary>
          <ul className="copy-keys">
            {report.failures.map((f) => (
              <li key={keyText(f.key)}>
                <code>{keyText(f.key)}</code> — {f.message} ({f.code})
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {report.notes.map((note) => (
        <p key={note} className="muted">
          {note}
        </p>
      ))}
    </div>
  );
}
