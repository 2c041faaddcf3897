import { useCallback, useMemo, useState } from 'react';
import {
  changeCalls,
  changeConsequence,
  changeProblems,
  isDynamoLocal,
  NOT_ON_DYNAMODB_LOCAL,
  type TableChange,
  type TableChangeKind,
} from '../../../../../shared/dynamo/table-change';
import { globalIndexCdkText } from '../../../../../shared/dynamo/cdk-text';
import {
  cliText,
  globalIndexCloudFormationText,
  sdkText,
} from '../../../../../shared/dynamo/table-request-text';
import type { Connection, TableSummary } from '../../../../../shared/ipc';
import type { TableAdminResult } from '../../../../../shared/ipc/table-admin';
import { Button } from '../../../../ui/button';
import { FieldError } from '../../../../ui/field';
import { Select } from '../../../../ui/select';
import { OperationStatus } from '../../../tables/admin/operation-status';
import { RequestPreview } from '../../../tables/admin/request-preview';
import { fieldsOf, useTableOperation } from '../../../tables/admin/use-table-operation';
import { useTablesStore } from '../../../tables/store';
import { ChangeFields } from './change-fields';
import { DeleteTable } from './delete-table';
import { PurgeTable } from './purge-table';
import { TagsEditor } from './tags-editor';
import { CHANGE_KINDS, initialChange, isUnchanged } from './change-kinds';

/** Rows the user added but left empty are not tags to set. */
function effective(change: TableChange): TableChange {
  return change.kind === 'tags'
    ? { ...change, set: change.set.filter((t) => t.key !== '' || t.value !== '') }
    : change;
}

/**
 * The Overview's Change section: one change at a time, what it costs or locks said before it is
 * sent, the exact request, then the table followed until ACTIVE again.
 */
export function ChangeSection({ connection, summary }: { connection: Connection; summary: TableSummary }) {
  const [kind, setKind] = useState<TableChangeKind>('billing');
  const [change, setChange] = useState<TableChange>(() => initialChange('billing', summary));
  const reloadDescription = useTablesStore((state) => state.loadDescription);
  const reloadList = useTablesStore((state) => state.loadList);
  const onDone = useCallback(
    (result: TableAdminResult) => {
      // The next change starts from the table as it is now.
      setChange((current) => initialChange(current.kind, result.summary));
      void reloadDescription(connection.id, summary.name);
      void reloadList(connection.id);
    },
    [reloadDescription, reloadList, connection.id, summary.name],
  );
  const operation = useTableOperation(onDone);
  const { state } = operation;

  const sent = effective(change);
  const problems = useMemo(() => {
    const local = changeProblems(sent, summary);
    return state.phase === 'failed' ? [...fieldsOf(state.error), ...local] : local;
  }, [sent, summary, state]);
  const notHere = isDynamoLocal(summary) ? NOT_ON_DYNAMODB_LOCAL[kind] : undefined;
  const calls = useMemo(() => changeCalls(sent, summary), [sent, summary]);
  const texts = useMemo(() => {
    const requests = [
      { id: 'sdk', label: 'SDK v3', text: sdkText(calls) },
      { id: 'cli', label: 'AWS CLI', text: cliText(calls) },
    ];
    if (sent.kind !== 'addIndex') return requests;
    // A new index is infrastructure too: the same index for a template or a CDK stack.
    const isProvisioned = summary.billingMode === 'PROVISIONED';
    return [
      ...requests,
      {
        id: 'cfn',
        label: 'CloudFormation',
        text: globalIndexCloudFormationText(sent.index, isProvisioned),
      },
      { id: 'cdk', label: 'CDK', text: globalIndexCdkText(sent.index, isProvisioned) },
    ];
  }, [calls, sent, summary.billingMode]);
  const isRunning = state.phase === 'running';
  // The form starts from the table as it is: nothing to apply, and no "already so" error, until
  // the user changes something.
  const unchanged = isUnchanged(sent, summary);
  // Field-level problems are said at their fields; the rest (already so, not here) above Apply.
  const general = problems.find(
    (p) => !p.field.includes('.') && !['readCapacity', 'writeCapacity', 'attribute'].includes(p.field),
  );

  const choose = (next: TableChangeKind): void => {
    setKind(next);
    setChange(initialChange(next, summary));
    operation.reset();
  };

  return (
    <section className="panel change-panel" aria-labelledby="change-heading">
      <h2 id="change-heading" className="panel-title">
        Change
      </h2>
      {connection.readOnly ? (
        <p className="muted small">This connection is read-only, so DynoTable changes nothing through it.</p>
      ) : (
        <div className="form change-form">
          <div className="key-fields change-kind">
            <span className="field-label">What to change</span>
            <Select
              label="What to change"
              value={kind}
              options={CHANGE_KINDS.map((k) => k.kind)}
              labelOf={(k) => CHANGE_KINDS.find((c) => c.kind === k)?.label ?? k}
              onChange={choose}
            />
          </div>
          {notHere ? (
            <p className="notice" role="note">
              {notHere}
            </p>
          ) : (
            <fieldset className="plain-fieldset" disabled={isRunning}>
              {change.kind === 'tags' ? (
                <TagsEditor
                  connectionId={connection.id}
                  summary={summary}
                  problems={problems}
                  onChange={setChange}
                />
              ) : (
                <ChangeFields change={change} onChange={setChange} summary={summary} problems={problems} />
              )}
              <p className="consequence" aria-live="polite">
                <strong>What this does: </strong>
                {unchanged
                  ? `Nothing yet: the form shows ${summary.name} as it is now. Change a setting above to see what it would do.`
                  : changeConsequence(sent, summary)}
              </p>
              <RequestPreview title="What DynoTable will send" texts={texts} />
            </fieldset>
          )}
          {!notHere ? (
            <div className="change-actions">
              <FieldError message={state.phase === 'done' || unchanged ? undefined : general?.message} />
              <OperationStatus
                state={state}
                onCancel={operation.cancel}
                connectionId={connection.id}
                doneText="Changed."
              />
              <span className="toolbar-spacer" />
              <Button
                variant="primary"
                isBusy={isRunning}
                disabled={isRunning || unchanged || problems.length > 0}
                onClick={() =>
                  void operation.start({
                    channel: 'tables:update',
                    input: { connectionId: connection.id, table: summary.name, change: sent },
                  })
                }
              >
                Apply change
              </Button>
            </div>
          ) : null}
          <h3 className="subheading">Purge items</h3>
          <PurgeTable connection={connection} summary={summary} />
          <h3 className="subheading">Delete table</h3>
          <DeleteTable connection={connection} summary={summary} />
        </div>
      )}
    </section>
  );
}
