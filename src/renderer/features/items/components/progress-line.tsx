import { Fragment, type ReactNode } from 'react';
import type { ItemsTableState } from '../store';
import { CapacityUnit } from '../../../ui/capacity-unit';
import { formatCount } from '../../../ui/format';

/** Items, pages and read capacity so far: the cost of the read, visible while it runs. */
export function ProgressLine({ state }: { state: ItemsTableState }) {
  const p = state.progress;
  // A collection view's total counts its header rows too; the line counts items.
  const shown = state.viewItems ?? state.viewTotal ?? state.fetched;
  const parts: ReactNode[] = [
    // "1 of 100 items", "1 item": the noun agrees with the last number said.
    `${formatCount(shown)}${state.viewTotal !== undefined ? ` of ${formatCount(state.fetched)}` : ''} item${(state.viewTotal !== undefined ? state.fetched : shown) === 1 ? '' : 's'}`,
    p ? `${p.pages} page${p.pages === 1 ? '' : 's'}` : undefined,
    p?.scanned !== undefined && p.scanned !== p.items ? `${formatCount(p.scanned)} evaluated` : undefined,
    // What the read cost, in the unit the tooltip explains, as everywhere else RCU is shown.
    p ? (
      <>
        {p.consumedCapacity.toFixed(1)} <CapacityUnit unit="RCU" />
      </>
    ) : undefined,
  ].filter(Boolean);
  return (
    <div className="progress-line" role="status" aria-live="polite">
      {state.status === 'running' ? <span className="spinner" aria-hidden="true" /> : null}
      <span>
        {parts.map((part, at) => (
          <Fragment key={at}>
            {at > 0 ? ' · ' : null}
            {part}
          </Fragment>
        ))}
      </span>
      {p?.fraction !== undefined && state.status === 'running' ? (
        <span className="progress-bar" aria-hidden="true">
          <span style={{ width: `${Math.round(p.fraction * 100)}%` }} />
        </span>
      ) : null}
      {p?.message ? <span className="muted">{p.message}</span> : null}
      {state.status === 'cancelled' ? <span className="muted">Cancelled</span> : null}
    </div>
  );
}
