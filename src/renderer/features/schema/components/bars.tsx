import type { SchemaBucket } from '../../../../shared/ipc';

/** Horizontal bars with their labels and counts in text: looked at, and read by a screen reader. */
export function Bars({ title, buckets, total }: { title: string; buckets: SchemaBucket[]; total?: number }) {
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const sum = total ?? buckets.reduce((n, b) => n + b.count, 0);
  return (
    <figure className="schema-bars">
      <figcaption className="schema-bars-title">{title}</figcaption>
      <ul className="schema-bars-list" aria-label={title}>
        {buckets.map((b) => (
          <li key={b.label} className="schema-bar-row">
            <span className="schema-bar-label" title={b.label}>
              {b.label}
            </span>
            <span className="schema-bar-track" aria-hidden="true">
              <span className="schema-bar-fill" style={{ width: `${(b.count / max) * 100}%` }} />
            </span>
            <span className="schema-bar-count">
              {b.count.toLocaleString('en-US')}
              <span className="muted"> · {sum > 0 ? Math.round((b.count / sum) * 100) : 0}%</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
