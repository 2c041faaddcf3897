import type { SqlPlan } from '../../../../shared/sql/plan';
import { countOf } from '../../../ui/format';
import { CapacityUnit } from '../../../ui/capacity-unit';
import { SEGMENTS_HELP } from '../../../ui/scan-words';

function age(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** The DynamoDB calls a statement will make, shown before it runs. */
export function PlanView({ plan }: { plan: SqlPlan }) {
  return (
    // Focusable because it scrolls: a keyboard user must be able to scroll it to read it all.
    <div className="sql-plan" role="region" aria-label="Plan" tabIndex={0}>
      <p className="sql-plan-totals">
        {plan.totals.calls === 0 ? (
          'Everything comes from the cache: no DynamoDB reads.'
        ) : (
          <>
            {`${countOf(plan.totals.calls, 'DynamoDB read')}, about ${countOf(plan.totals.itemsRead, 'item')} and ${plan.totals.rcu.toLocaleString('en-US')} `}
            <CapacityUnit unit="RCU" />.
          </>
        )}
      </p>
      <ol className="sql-plan-list">
        {plan.fetches.map((fetch) => (
          <li key={fetch.id} className="sql-plan-fetch">
            <div className="sql-plan-head">
              <span className={`sql-op sql-op-${fetch.call.operation.toLowerCase()}`}>
                {fetch.call.operation}
              </span>
              <strong>{fetch.call.table}</strong>
              {fetch.call.index ? <span> on index {fetch.call.index}</span> : null}
              {fetch.call.segments && fetch.call.segments > 1 ? (
                <span title={SEGMENTS_HELP}> · {fetch.call.segments} parallel readers (Scan segments)</span>
              ) : null}
              {fetch.call.keys && fetch.call.keys > 1 ? <span> · {fetch.call.keys} keys</span> : null}
              <span className="sql-faint"> for {fetch.serves.join(', ')}</span>
              {fetch.cached ? (
                <span className="sql-cached">
                  cached {age(fetch.cached.fetchedAt)} · {countOf(fetch.cached.items, 'item')}
                </span>
              ) : null}
            </div>
            <dl className="sql-plan-details">
              {fetch.call.keyCondition ? (
                <>
                  <dt>Key condition</dt>
                  <dd>
                    <code>{fetch.call.keyCondition}</code>
                  </dd>
                </>
              ) : null}
              {fetch.call.filter ? (
                <>
                  <dt>Filter</dt>
                  <dd>
                    <code>{fetch.call.filter}</code>
                  </dd>
                </>
              ) : null}
              <dt>Attributes</dt>
              <dd>
                {fetch.call.projection ? <code>{fetch.call.projection.join(', ')}</code> : 'whole items'}
              </dd>
              <dt>Estimate</dt>
              <dd>
                reads ~{countOf(fetch.estimate.itemsRead, 'item')}, returns ~
                {fetch.estimate.itemsReturned.toLocaleString('en-US')}, ~
                {fetch.estimate.rcu.toLocaleString('en-US')} <CapacityUnit unit="RCU" />
                <span className="sql-faint">
                  {' '}
                  ({fetch.estimate.basis}; stops at {countOf(fetch.maxItems, 'item')})
                </span>
              </dd>
              <dt>Why</dt>
              <dd>{fetch.reason}</dd>
            </dl>
          </li>
        ))}
      </ol>
      {plan.notes.map((note) => (
        <p key={note} className="sql-faint">
          {note}
        </p>
      ))}
    </div>
  );
}
