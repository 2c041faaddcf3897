import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import type { AttributeChange } from '../../../../shared/dynamo/diff';

function short(value: AttributeValue | undefined): string {
  if (!value) return '';
  const text = JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 90)}…` : text;
}

/** Per-attribute changes, typed values shown as DynamoDB sees them. */
export function DiffList({ changes, label = 'Changes' }: { changes: AttributeChange[]; label?: string }) {
  if (changes.length === 0) return <p className="muted">No changes.</p>;
  return (
    <ul className="diff-list" aria-label={label}>
      {changes.map((change) => (
        <li key={change.name} className={`diff-${change.kind}`}>
          <span className="diff-name">{change.name}</span>
          <span className="diff-kind">{change.kind}</span>
          {change.before ? <code className="diff-before">{short(change.before)}</code> : null}
          {change.before && change.after ? <span aria-hidden="true">→</span> : null}
          {change.after ? <code className="diff-after">{short(change.after)}</code> : null}
        </li>
      ))}
    </ul>
  );
}
