import { formatDate } from '../../../ui/format';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../../shared/dynamo/value-equality';
import type { UndoItem, UndoReport } from '../../../../shared/ipc/journal';
import { Button } from '../../../ui/button';

/** A later write of the user's own that changed an item this undo left alone. */
export type LaterEntry = NonNullable<UndoItem['laterEntry']>;

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
      {item.laterEntry ? (
        <p className="small">
          Changed since by your later write: {item.laterEntry.reason} (
          {formatDate(item.laterEntry.at, { seconds: true })}).
        </p>
      ) : null}
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

/** The newest later write of the user's own among the refused items, which undo can take back first. */
function newestLater(report: UndoReport): LaterEntry | undefined {
  let newest: LaterEntry | undefined;
  for (const item of report.items)
    if (item.laterEntry && (!newest || item.laterEntry.at > newest.at)) newest = item.laterEntry;
  return newest;
}

/**
 * How an undo ended: counts in a sentence, then each refused or failed item. Where a later write of
 * the user's own changed a refused item, it offers to undo that write first and this one again.
 */
export function UndoReportView({
  report,
  verb = 'Undo',
  onUndoLaterFirst,
}: {
  report: UndoReport;
  /** `Redo` when the entry undone was an undo's own. */
  verb?: 'Undo' | 'Redo';
  onUndoLaterFirst?: (later: LaterEntry) => void;
}) {
  const plural = (n: number) => (n === 1 ? '' : 's');
  const later = onUndoLaterFirst ? newestLater(report) : undefined;
  return (
    <div className="undo-report">
      <p>
        {verb}: {report.restored} item{plural(report.restored)} put back
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
      {later && onUndoLaterFirst ? (
        <Button size="sm" onClick={() => onUndoLaterFirst(later)}>
          Undo “{later.reason}” first, then this again
        </Button>
      ) : null}
    </div>
  );
}
