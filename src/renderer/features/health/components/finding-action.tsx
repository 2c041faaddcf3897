import { useState } from 'react';
import type { AppError, Item } from '../../../../shared/ipc';
import type { HealthAction } from '../../../../shared/ipc/health';
import type { FixPlanSummary, FixResult } from '../../../../shared/ipc/migration';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { call, CallFailure, toAppErrorShape } from '../../../ipc/client';
import type { OperationChannel, OperationDone } from '../../../../shared/ipc/contract';
import { type LongWorkStarter, startLongWork, unreadableDoneError } from '../../operations/long-work';
import { useEditorStore } from '../../editor/store';
import { useWorkspaceStore, tableKeyIn } from '../../workspace/store';
import { initialBuilder, toReadSpec } from '../../query/builder-state';
import { rememberBuilder } from '../../query/builder-memory';
import { itemsKey, useItemsStore } from '../../items/store';

interface Props {
  action: HealthAction;
  connectionId: string;
  table: string;
  keys: KeySchema;
}

const keyLabel = (key: Item) =>
  Object.entries(key)
    .map(
      ([name, value]) => `${name}=${'S' in value ? value.S : 'N' in value ? value.N : JSON.stringify(value)}`,
    )
    .join(' · ');

/** Runs an operation and resolves with its done value, read by the channel's schema (or rejects with its error). */
function operation<C extends OperationChannel>(
  channel: C,
  start: LongWorkStarter<C>,
): Promise<OperationDone<C>> {
  return new Promise<OperationDone<C>>((resolve, reject) => {
    startLongWork(channel, start, {
      prefix: 'health',
      onEnd: (ending) => {
        if (ending.type === 'failed') reject(new CallFailure(ending.error));
        else if (ending.type === 'cancelled')
          reject(new CallFailure({ code: 'Cancelled', message: 'Cancelled.', retryable: true }));
        else if (ending.value === undefined) reject(new CallFailure(unreadableDoneError(channel)));
        else resolve(ending.value);
      },
    });
  });
}

/** A finding's one action: open its items, stage the TTL fix, show the template change, or turn Contributor Insights on. */
export function FindingAction({ action, connectionId, table, keys }: Props) {
  if (action.kind === 'open-items')
    return <OpenItems keys={action.keys} connectionId={connectionId} table={table} tableKeys={keys} />;
  if (action.kind === 'stage-ttl-fix')
    return <TtlFix connectionId={connectionId} table={table} attribute={action.attribute} />;
  if (action.kind === 'show-change')
    return (
      <details className="health-change">
        <summary>Show the CloudFormation / CDK change</summary>
        <pre className="health-code" aria-label="CloudFormation">
          {action.cloudFormation}
        </pre>
        <pre className="health-code" aria-label="CDK">
          {action.cdk}
        </pre>
      </details>
    );
  return <EnableInsights connectionId={connectionId} table={table} note={action.monthlyCostNote} />;
}

function OpenItems({
  keys,
  connectionId,
  table,
  tableKeys,
}: {
  keys: Item[];
  connectionId: string;
  table: string;
  tableKeys: KeySchema;
}) {
  const open = (key: Item) => {
    const editor = useEditorStore.getState();
    const target = { connectionId, table, keys: tableKeys };
    editor.guard(() => {
      void editor.openItem(target, key);
      useWorkspaceStore.getState().setTableView(tableKeyIn(connectionId, table), 'items');
    }, target);
  };
  const whole = keys.filter((k) => tableKeys.sortKey === undefined || tableKeys.sortKey.name in k);
  // A partition key alone: its item collection, as a Query in the Items tab's own builder.
  const query = (key: Item) => {
    const value = key[tableKeys.partitionKey.name];
    if (!value) return;
    const text = 'S' in value ? value.S : 'N' in value ? value.N : 'B' in value ? value.B : '';
    const builder = { ...initialBuilder, mode: 'query' as const, partitionKey: text };
    const read = toReadSpec(builder, tableKeys, [], []);
    if ('errors' in read) return;
    rememberBuilder(itemsKey(connectionId, table), builder);
    void useItemsStore.getState().run({ connectionId, table, keys: tableKeys, read });
    useWorkspaceStore.getState().setTableView(tableKeyIn(connectionId, table), 'items');
  };
  if (whole.length === 0)
    return (
      <ul className="health-keys">
        {keys.slice(0, 5).map((key) => (
          <li key={keyLabel(key)}>
            <Button
              size="sm"
              onClick={() => query(key)}
              aria-label={`Query ${keyLabel(key)} in the Items tab`}
            >
              Query
            </Button>{' '}
            <code>{keyLabel(key)}</code>
          </li>
        ))}
      </ul>
    );
  return (
    <ul className="health-keys">
      {whole.slice(0, 5).map((key) => (
        <li key={keyLabel(key)}>
          <Button size="sm" onClick={() => open(key)} aria-label={`Open ${keyLabel(key)} in the item editor`}>
            Open
          </Button>{' '}
          <code>{keyLabel(key)}</code>
        </li>
      ))}
      {whole.length > 5 ? <li className="muted">and {whole.length - 5} more</li> : null}
    </ul>
  );
}

function TtlFix({
  connectionId,
  table,
  attribute,
}: {
  connectionId: string;
  table: string;
  attribute: string;
}) {
  const [plan, setPlan] = useState<FixPlanSummary>();
  const [result, setResult] = useState<FixResult>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const run = async <T,>(work: () => Promise<T>, then: (value: T) => void) => {
    setBusy(true);
    setError(undefined);
    try {
      then(await work());
    } catch (e) {
      setError(toAppErrorShape(e));
    } finally {
      setBusy(false);
    }
  };
  if (result)
    return (
      <p role="status" className="health-action-note">
        Converted {result.written} values of {attribute} to seconds
        {result.skippedChanged ? `; ${result.skippedChanged} changed meanwhile and were left alone` : ''}
        {result.failed ? `; ${result.failed} failed` : ''}. Each write is in History, to undo.
      </p>
    );
  return (
    <div className="health-fix">
      {plan ? (
        <>
          <p role="status" className="health-action-note">
            Staged: {plan.updates} items of {plan.itemsScanned} read will have {attribute} divided by 1,000,
            each conditioned on the value it read. Nothing else of any item changes.
          </p>
          <Button
            variant="primary"
            size="sm"
            isBusy={busy}
            disabled={plan.updates === 0 || plan.readOnly}
            onClick={() =>
              void run(
                () =>
                  operation('migration:fixRun', (requestId) =>
                    call('migration:fixRun', { connectionId, planId: plan.planId, requestId }),
                  ),
                setResult,
              )
            }
          >
            Convert {plan.updates} values to seconds
          </Button>
          {plan.readOnly ? <span className="muted"> This connection is read-only.</span> : null}
        </>
      ) : (
        <Button
          size="sm"
          isBusy={busy}
          onClick={() =>
            void run(
              () =>
                operation('migration:fixPlan', (requestId) =>
                  call('migration:fixPlan', {
                    connectionId,
                    table,
                    requestId,
                    policy: 'review',
                    ttlOnly: true,
                  }),
                ),
              setPlan,
            )
          }
        >
          Stage the fix (dry run)
        </Button>
      )}
      {error ? <ErrorMessage compact error={error} connectionId={connectionId} /> : null}
    </div>
  );
}

function EnableInsights({
  connectionId,
  table,
  note,
}: {
  connectionId: string;
  table: string;
  note: string;
}) {
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<AppError>();
  const [busy, setBusy] = useState(false);
  if (status)
    return (
      <p role="status" className="health-action-note">
        Contributor Insights is {status.toLowerCase()}; check again in a few minutes for the most accessed
        keys.
      </p>
    );
  return (
    <div className="health-fix">
      <Button
        size="sm"
        isBusy={busy}
        onClick={() => {
          setBusy(true);
          void call('health:enableInsights', { connectionId, table }).then((e) => {
            setBusy(false);
            if (e.ok) setStatus(e.value.status);
            else setError(e.error);
          });
        }}
      >
        Enable Contributor Insights
      </Button>
      <span className="muted"> {note}</span>
      {error ? <ErrorMessage compact error={error} connectionId={connectionId} /> : null}
    </div>
  );
}
