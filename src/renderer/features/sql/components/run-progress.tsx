import { useOperation } from '../../operations/store';
import { Button } from '../../../ui/button';
import { countOf } from '../../../ui/format';

/** Progress of a running statement (items, pages, capacity) with its Cancel button. */
export function RunProgress({ requestId, onCancel }: { requestId: string; onCancel(): void }) {
  const operation = useOperation(requestId);
  const p = operation?.progress;
  const fraction = p?.fraction;
  return (
    <div className="sql-progress" role="status" aria-live="polite">
      <div className="meter sql-progress-bar" aria-hidden="true">
        <span
          style={{ width: fraction === undefined ? '30%' : `${Math.round(fraction * 100)}%` }}
          className={fraction === undefined ? 'is-indeterminate' : ''}
        />
      </div>
      <span>
        {p?.message ?? 'Starting'}
        {/* Athena's progress (and a read before its first page) has no DynamoDB pages to count. */}
        {p && p.pages > 0
          ? ` · ${countOf(p.items, 'item')} · ${countOf(p.pages, 'page')} · ${p.consumedCapacity.toLocaleString('en-US')} RCU`
          : ''}
        {fraction !== undefined ? ` · ${Math.round(fraction * 100)}%` : ''}
      </span>
      <Button size="sm" variant="danger" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
