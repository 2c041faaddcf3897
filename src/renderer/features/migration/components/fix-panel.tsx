import { useState } from 'react';
import type { Connection, FixPolicy, MigrationReport } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { Switch } from '../../../ui/switch';
import { useSettleOnEnd } from '../hooks';
import { useMigrationStore, useMigrationTable } from '../store';
import { OperationProgress } from '../../operations/components/operation-progress';
import { PlannedChanges, RewriteChoices, rewritesOf, type RewritePick } from './fix-rewrites';

export { REWRITABLE } from './fix-rewrites';

const policies: { value: FixPolicy; title: string; hint: string }[] = [
  {
    value: 'review',
    title: 'List for review',
    hint: 'Where the two values differ, change nothing and list the item.',
  },
  {
    value: 'shadow-wins',
    title: 'Top-level wins',
    hint: 'The "a.b" value (the last dynamoose write) replaces the nested one.',
  },
  {
    value: 'nested-wins',
    title: 'Nested wins',
    hint: 'Keep the nested value; only remove the "a.b" attribute.',
  },
];

/** The fix, never blind: policy → dry run (counts and the exact requests) → run → final counts. */
export function FixPanel({
  connection,
  table,
  report,
}: {
  connection: Connection;
  table: string;
  report: MigrationReport;
}) {
  const state = useMigrationTable(connection.id, table);
  const startPlan = useMigrationStore((s) => s.startPlan);
  const startRun = useMigrationStore((s) => s.startRun);
  const [policy, setPolicy] = useState<FixPolicy>('review');
  const [convertDates, setConvertDates] = useState(false);
  const [writesPerSecond, setWritesPerSecond] = useState(25);
  const [picks, setPicks] = useState<RewritePick>(() => new Map());
  useSettleOnEnd(connection.id, table, state.planRequestId, 'plan');
  useSettleOnEnd(connection.id, table, state.runRequestId, 'run');
  const { plan, result } = state;
  const isBusy = Boolean(state.planRequestId || state.runRequestId);
  const hasIso = report.dateAttributes.some((d) => d.iso > 0 && !d.isKey);

  return (
    <section className="panel" aria-labelledby="mig-fix-title">
      <h2 id="mig-fix-title" className="panel-title">
        Fix
      </h2>
      <div className="mig-panel-body mig-fix-body">
        <fieldset className="mig-policy" disabled={isBusy}>
          <legend className="field-label">When the top-level and nested values differ</legend>
          {policies.map((p) => (
            <label key={p.value} className={`segment${policy === p.value ? ' is-selected' : ''}`}>
              <input
                type="radio"
                name="mig-policy"
                value={p.value}
                checked={policy === p.value}
                onChange={() => setPolicy(p.value)}
              />
              <span className="segment-title">{p.title}</span>
              <span className="segment-hint">{p.hint}</span>
            </label>
          ))}
        </fieldset>
        {hasIso ? (
          <Switch
            checked={convertDates}
            onChange={setConvertDates}
            disabled={isBusy}
            label="Also convert ISO dates to epoch milliseconds"
            hint="Never on table or index keys; sub-millisecond digits and offsets are not kept."
          />
        ) : null}
        <RewriteChoices report={report} picks={picks} onChange={setPicks} disabled={isBusy} />
        <div className="mig-fix-actions">
          <Button
            variant="primary"
            disabled={isBusy}
            onClick={() =>
              void startPlan(connection.id, table, {
                policy,
                convertDates,
                segments: report.segments,
                ...rewritesOf(picks),
              })
            }
          >
            Dry run
          </Button>
          <span className="muted">
            Reads the table again and shows exactly what would be written. Writes nothing.
          </span>
        </div>
        {state.planRequestId ? <OperationProgress requestId={state.planRequestId} label="Planning" /> : null}
        {plan ? (
          <div className="mig-plan">
            <p>
              <strong>{plan.updates.toLocaleString('en-US')}</strong> conditional updates: {plan.moves} moves,{' '}
              {plan.removals} removals, {plan.dateConversions} date conversions
              {plan.rewrites ? `, ${plan.rewrites.toLocaleString('en-US')} values rewritten` : ''}.{' '}
              <strong>{plan.review}</strong> left for review.
            </p>
            <PlannedChanges plan={plan} />
            {plan.reviewSamples.length > 0 ? (
              <ul className="mig-review">
                {plan.reviewSamples.slice(0, 10).map((r) => (
                  <li key={`${JSON.stringify(r.key)}${r.attribute}`}>
                    <code>{JSON.stringify(r.key)}</code> {r.attribute}: {r.reason}
                  </li>
                ))}
              </ul>
            ) : null}
            {plan.sampleRequests.length > 0 ? (
              <details className="mig-requests">
                <summary>Sample requests as they will be sent ({plan.sampleRequests.length})</summary>
                <pre className="code-block">{JSON.stringify(plan.sampleRequests, null, 2)}</pre>
              </details>
            ) : null}
            {plan.readOnly || connection.readOnly ? (
              <p className="notice notice-warning">
                This connection is read-only: the run is refused. Use a connection that may write.
              </p>
            ) : plan.updates > 0 && result?.state !== 'done' ? (
              <div className="mig-fix-actions">
                <label className="mig-control">
                  <span className="field-label">Write capacity per second</span>
                  <input
                    className="input"
                    type="number"
                    min={1}
                    value={writesPerSecond}
                    onChange={(e) => setWritesPerSecond(Number(e.target.value))}
                  />
                </label>
                <Button
                  variant="danger"
                  disabled={isBusy || !(writesPerSecond > 0)}
                  onClick={() => void startRun(connection.id, table, { writesPerSecond })}
                >
                  {result?.state === 'cancelled'
                    ? 'Resume fix'
                    : `Run fix (${plan.updates.toLocaleString('en-US')} updates)`}
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
        {state.runRequestId ? <OperationProgress requestId={state.runRequestId} label="Fixing" /> : null}
        {result ? (
          <div className={`notice ${result.failed > 0 ? 'notice-warning' : ''} mig-result`} role="status">
            <p>
              <strong>{result.state === 'done' ? 'Fix finished.' : 'Fix stopped; resume to finish.'}</strong>{' '}
              {result.written.toLocaleString('en-US')} written ·{' '}
              {result.skippedChanged.toLocaleString('en-US')} skipped because the item changed ·{' '}
              {result.failed.toLocaleString('en-US')} failed.
            </p>
            {result.skippedChanged > 0 ? (
              <p className="muted">
                Changed items were left as they are now. Scan again to see what remains.
              </p>
            ) : null}
            {result.throttledRequests ? (
              <p className="muted">
                DynamoDB throttled {result.throttledRequests.toLocaleString('en-US')} write
                {result.throttledRequests === 1 ? '' : 's'}; the fix slowed down and retried them.
              </p>
            ) : null}
            {result.failures.slice(0, 5).map((f) => (
              <p key={JSON.stringify(f.key)} className="muted">
                <code>{JSON.stringify(f.key)}</code> {f.code}: {f.message}
              </p>
            ))}
          </div>
        ) : null}
      </div>
    </section>
  );
}
