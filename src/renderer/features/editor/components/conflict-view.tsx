import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { compareConflict } from '../../../../shared/dynamo/diff';
import { Button } from '../../../ui/button';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { writtenBy } from '../../journal/source-words';
import type { WrittenBy } from '../store';

function show(value: AttributeValue | undefined): string {
  return value ? JSON.stringify(value) : '—';
}

export interface ConflictViewProps {
  seen: Item | null;
  current: Item | null;
  mine: Item;
  /** Another write DynoTable made while you had unsaved edits (absent: a save found a change). */
  writtenBy?: WrittenBy;
  onResolve(choice: 'apply-mine' | 'take-theirs' | 'overwrite'): void;
}

/**
 * Someone else changed the item: nothing was written. Shows what they changed, what you changed
 * and where both touched the same attribute, then lets you choose. Every choice goes back to
 * the editor as a new draft conditioned on the item as it is now; nothing is written unasked.
 */
export function ConflictView({ seen, current, mine, writtenBy: by, onResolve }: ConflictViewProps) {
  const view = compareConflict(seen ?? {}, current, mine);
  const names = [...new Set([...view.theirs.map((c) => c.name), ...view.mine.map((c) => c.name)])];
  return (
    <section className="conflict-view" aria-label="Conflict">
      <h3>
        {by
          ? `This item was ${current ? 'changed' : 'deleted'} by ${writtenBy(by.source, !current)}`
          : current
            ? 'This item was changed by someone else'
            : 'This item was deleted by someone else'}
      </h3>
      <p className="muted">
        {by ? 'Your edits are not saved yet.' : 'Nothing was written.'} Compare and choose how to continue.
      </p>
      <table className="data-table is-compact conflict-table">
        <thead>
          <tr>
            <th>Attribute</th>
            <th>You loaded</th>
            <th>Stored now</th>
            <th>Yours</th>
          </tr>
        </thead>
        <tbody>
          {names.map((name) => (
            <tr key={name} className={view.overlapping.includes(name) ? 'is-overlap' : ''}>
              <td>
                {name}
                {view.overlapping.includes(name) ? <span className="cell-type">both</span> : null}
              </td>
              <td>
                <code>{show(seen ? ownValue(seen, name) : undefined)}</code>
              </td>
              <td>
                <code>{show(current ? ownValue(current, name) : undefined)}</code>
              </td>
              <td>
                <code>{show(ownValue(mine, name))}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="conflict-actions">
        <Button variant="primary" onClick={() => onResolve('apply-mine')} disabled={!current}>
          Apply my changes to the stored item
        </Button>
        <Button onClick={() => onResolve('take-theirs')}>Discard mine, keep theirs</Button>
        <Button variant="danger" onClick={() => onResolve('overwrite')}>
          Replace with mine
        </Button>
      </div>
    </section>
  );
}
