import { formatTime } from '../../../ui/format';
import { diffItems, type AttributeChange } from '../../../../shared/dynamo/diff';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import type { StreamRecord } from '../../../../shared/ipc/stream-record';
import { Badge } from '../../../ui/badge';
import { ValueCell } from '../../items/components/value-cell';

const TONE = { INSERT: 'success', MODIFY: 'accent', REMOVE: 'danger' } as const;

function keyText(keys: Item): string {
  return Object.entries(keys)
    .map(([name, value]) => `${name} = ${Object.values(value)[0] as string}`)
    .join(', ');
}

/** What the record changed, attribute by attribute, as far as the view type shows it. */
function changesOf(record: StreamRecord): AttributeChange[] | undefined {
  if (record.oldImage && record.newImage) return diffItems(record.oldImage, record.newImage);
  if (record.newImage) return diffItems({}, record.newImage);
  if (record.oldImage) return diffItems(record.oldImage, {});
  return undefined;
}

/** One stream record: its event, keys, time, and its images diffed per attribute. */
export function StreamRecordCard({ record }: { record: StreamRecord }) {
  const changes = changesOf(record);
  const title = `${record.eventName} ${keyText(record.keys)}`;
  return (
    <article className="stream-record" aria-label={title}>
      <header className="stream-record-head">
        <Badge tone={TONE[record.eventName]}>{record.eventName}</Badge>
        <span className="stream-record-keys">{keyText(record.keys)}</span>
        {record.isTtl ? <Badge tone="muted">TTL</Badge> : null}
        <span className="toolbar-spacer" />
        <span className="muted small">{formatTime(record.at)}</span>
      </header>
      {changes === undefined ? (
        <p className="muted small">The stream records keys only (view type KEYS_ONLY).</p>
      ) : changes.length === 0 ? (
        <p className="muted small">No attribute changed (the item was written with the same values).</p>
      ) : (
        <table className="stream-diff">
          <thead>
            <tr>
              <th scope="col">Attribute</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.name} className={`is-${change.kind}`}>
                <th scope="row">{change.name}</th>
                <td>
                  {change.before ? <ValueCell value={change.before} /> : <span className="muted">—</span>}
                </td>
                <td>
                  {change.after ? <ValueCell value={change.after} /> : <span className="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
