import { useState } from 'react';
import type { KeyAdvice, SchemaReport } from '../../../../shared/ipc';
import { keyPartsOf, keyText } from '../../../../shared/dynamo/key-model';
import { adviceCdk, adviceCloudFormation, adviceIndex } from '../../../../shared/schema/key-advice-text';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { countOf } from '../../../ui/format';
import { useTableOperation } from '../../tables/admin/use-table-operation';

const n = (v: number) => v.toLocaleString('en-US');

function bytesText(b: number): string {
  if (b < 10_000) return `${n(b)} bytes`;
  if (b < 10_000_000) return `${n(Math.round(b / 1024))} KB`;
  return `${n(Math.round(b / 1024 / 1024))} MB`;
}

/** What the read found, in sentences; a sample's figures scaled to the table as "about". */
function findings(advice: KeyAdvice, report: SchemaReport): string[] {
  // DynamoDB refreshes ItemCount about every six hours: a sample scales only up, never down.
  const scale =
    report.sampled && report.itemsScanned > 0 && report.tableItemCount > report.itemsScanned
      ? report.tableItemCount / report.itemsScanned
      : 1;
  const about = (v: number) => (scale === 1 ? n(v) : `about ${n(Math.round(v * scale))}`);
  const out = [
    `${n(advice.readyItems)} of the ${n(advice.shapeItems)} items built this way already hold every part as its own attribute: the new index finds them with no write.`,
  ];
  for (const b of advice.backfill)
    out.push(
      `${countOf(b.items, 'item')} lack ${b.name} or hold another value there: a backfill writes ${b.name} from the key before the new index finds them.`,
    );
  if (advice.backfill.length === 0) out.push('No backfill needed: no item of this shape lacks a part.');
  if (advice.otherShapes > 0)
    out.push(
      `${countOf(advice.otherShapes, 'item')} in ${advice.index} have keys of another shape; they need their own rewrite.`,
    );
  if (advice.newcomers !== undefined) {
    if (advice.newcomers > 0)
      out.push(
        `${countOf(advice.newcomers, 'item')} without ${advice.index}'s keys hold every attribute of the new key with its type: the new index would hold them too.`,
      );
  } else if (advice.newcomersAtMost > 0)
    // Too many item shapes to count exactly (or a read saved before they were counted).
    out.push(
      `At most ${countOf(advice.newcomersAtMost, 'item')} without ${advice.index}'s keys hold these attributes: the new index would hold those whose types fit its key too.`,
    );
  out.push(
    `Dropping ${advice.replaces.map((r) => r.attribute).join(' and ')} saves ${bytesText(advice.bytesSaved)} over the ${n(report.itemsScanned)} items read${scale === 1 ? '' : ` (${bytesText(Math.round(advice.bytesSaved * scale))} over the table)`}, stored once in the table and again in the index; every write stops building them.`,
    `Writing every item once costs ${about(advice.writeUnits.now)} write units today and ${about(advice.writeUnits.native)} without them (each index write shrinks alike).`,
  );
  return out;
}

function AdviceCard({
  advice,
  report,
  connectionId,
}: {
  advice: KeyAdvice;
  report: SchemaReport;
  connectionId: string;
}) {
  const [isConfirming, setConfirming] = useState(false);
  const { state, message, start, reset } = useTableOperation();
  const keys = keyPartsOf(advice.partitionKeys, advice.sortKeys);
  const titleId = `key-advice-${advice.index}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <article className="schema-advice" aria-labelledby={titleId} data-advice={advice.index}>
      <h3 id={titleId} className="schema-advice-title">
        {advice.index} is keyed on values built from other attributes
      </h3>
      <ul className="schema-advice-templates" aria-label="How the keys are built">
        {advice.replaces.map((r) => (
          <li key={r.attribute}>
            <code>{r.attribute}</code> ({r.role}) = <code>{r.template}</code>
          </li>
        ))}
      </ul>
      <p className="schema-advice-proposal">
        A native multi-attribute index replaces them: <strong>{advice.proposedName}</strong> on{' '}
        <code data-testid="advice-keys">{keyText(keys)}</code>
        <span className="muted"> (partition attributes / sort attributes, in order; projection ALL)</span>
      </p>
      <ul className="schema-advice-findings">
        {findings(advice, report).map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <details className="schema-advice-code">
        <summary>CloudFormation and CDK</summary>
        <pre className="schema-model" aria-label={`CloudFormation for ${advice.proposedName}`} tabIndex={0}>
          {adviceCloudFormation(advice)}
        </pre>
        <pre className="schema-model" aria-label={`CDK for ${advice.proposedName}`} tabIndex={0}>
          {adviceCdk(advice)}
        </pre>
      </details>
      {state.phase === 'done' ? (
        <p role="status" className="schema-advice-done">
          Index {advice.proposedName} created on {report.table}: DynamoDB lists it with {keyText(keys)}.
        </p>
      ) : state.phase === 'running' ? (
        <p role="status">{message ?? `Creating ${advice.proposedName}…`}</p>
      ) : isConfirming ? (
        <div
          className="schema-advice-confirm"
          role="group"
          aria-label={`Confirm creating ${advice.proposedName}`}
        >
          <p>
            Create the global index {advice.proposedName} on {report.table}? DynamoDB builds it from the
            table’s items, which takes a while on a large table and costs the write units of that backfill.
            The synthetic attributes stay until your application stops writing them.
          </p>
          <div className="mig-controls">
            <Button
              variant="primary"
              onClick={() =>
                void start({
                  channel: 'tables:update',
                  input: {
                    connectionId,
                    table: report.table,
                    change: { kind: 'addIndex', index: adviceIndex(advice) },
                  },
                })
              }
            >
              Create {advice.proposedName}
            </Button>
            <Button
              onClick={() => {
                setConfirming(false);
                reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="mig-controls">
          <Button onClick={() => setConfirming(true)}>Create index {advice.proposedName}…</Button>
        </div>
      )}
      {state.phase === 'failed' ? (
        <ErrorMessage compact error={state.error} connectionId={connectionId} />
      ) : null}
    </article>
  );
}

/** The advisor's findings: each index keyed on concatenated values, and its native replacement. */
export function KeyAdvicePanel({ report, connectionId }: { report: SchemaReport; connectionId: string }) {
  const advice = report.keyAdvice ?? [];
  if (advice.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="schema-advice-title">
      <h2 id="schema-advice-title" className="panel-title">
        Key advisor
      </h2>
      <div className="mig-panel-body">
        {advice.map((a) => (
          <AdviceCard key={a.index} advice={a} report={report} connectionId={connectionId} />
        ))}
      </div>
    </section>
  );
}
