import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../../shared/dynamo/value-equality';
import type { UndoItem, UndoReport } from '../../../../shared/ipc/journal';

function show(value: AttributeValue | undefined): string {
  return value ? JSON.stringify(value) : '—';
}

function keyText(key: Item): string {
  return Object.keys(key)
    .map((name) => {
      const value: unknown = Object.values(ownValue(key, name) ?? {})[0];
      return typeof value === 'string' ? value : JSON.stringify(value);
    })
    .join(' · ');
}

function differs(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return a === undefined || b === undefined ? a !== b : !valuesEqual(a, b);
}

/**
 * One refused item, its versions side by side like the editor's conflict view: what undo would put
 * back, what the write left, and what is stored now (someone's change, which undo left alone).
 */
function RefusedItem({ item }: { item: UndoItem }) {
  const versions = [item.before, item.written, item.current ?? null];
  const names = [...new Set(versions.flatMap((v) => (v ? Object.keys(v) : [])))];
  const changed = names.filter((name) => {
    const [before, written, current] = versions.map((v) => (v ? ownValue(v, name) : undefined));
    return differs(before, written) || differs(written, current);
  });
  return (
    <li className="undo-refused">
      <p>
        <code>{keyText(item.key)}</code> <span className="muted">{item.message}</span>
      </p>
      {item.status === 'conflict' ? (
        <table className="data-table is-compact conflict-table">
          <thead>
            <tr>
              <th>Attribute</th>
              <th>Before (undo puts back)</th>
              <th>Your write left</th>
              <th>Stored now</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((name) => (
              <tr key={name}>
                <td>{name}</td>
                {versions.map((v, i) => (
                  <td key={i}>
                    <code>{v ? show(ownValue(v, name)) : '(no item)'}</code>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}

/** How an undo ended: counts in a sentence, then each refused or failed item. */
export function UndoReportView({ report }: { report: UndoReport }) {
  const plural = (n: number) => (n === 1 ? '' : 's');
  return (
    <div className="undo-report">
      <p>
        Undo: {report.restored} item{plural(report.restored)} put back
        {report.alreadyRestored > 0 ? ` (${report.alreadyRestored} already were)` : ''}
        {report.conflicts > 0
          ? `, ${report.conflicts} left as they are because they changed since your write`
          : ''}
        {report.failed > 0 ? `, ${report.failed} failed` : ''}.
      </p>
      {report.items.length > 0 ? (
        <ul className="undo-refused-list" aria-label="Items undo left alone">
          {report.items.map((item) => (
            <RefusedItem key={JSON.stringify(item.key)} item={item} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
