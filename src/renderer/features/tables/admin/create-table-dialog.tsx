import { useCallback, useMemo, useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import type { TableAdminResult } from '../../../../shared/ipc/table-admin';
import { connectionInRegion } from '../../../../shared/dynamo/regions';
import { blankDefinition, type TableDefinition } from '../../../../shared/dynamo/table-definition';
import {
  cliText,
  cloudFormationText,
  createTableCalls,
  sdkText,
} from '../../../../shared/dynamo/table-request-text';
import { validateDefinition } from '../../../../shared/dynamo/table-validation';
import { tableCdkText } from '../../../../shared/dynamo/cdk-text';
import { Button } from '../../../ui/button';
import { Dialog, DialogActions } from '../../../ui/dialog';
import { Select } from '../../../ui/select';
import { tableKey, useWorkspaceStore } from '../../workspace/store';
import { tableSetChanged } from '../table-set';
import { DefinitionForm } from './definition-form';
import { OperationStatus } from './operation-status';
import { RequestPreview } from './request-preview';
import { StartFrom } from './start-from';
import { fieldsOf, useTableOperation } from './use-table-operation';

export const LOCAL_CREATE_NOTE =
  'DynamoDB Local accepts a table class and tags but keeps neither, and has no point-in-time recovery; everything else here works as on AWS.';

export interface CreateTableDialogProps {
  connection: Connection;
  /** The regions the table list shows; with more than one, the table's region is chosen here. */
  regions?: readonly string[];
  onClose(): void;
}

/** The Create table form: a starting point, the definition, the exact request, and the table followed until ACTIVE. */
export function CreateTableDialog({ connection: own, regions = [], onClose }: CreateTableDialogProps) {
  const [region, setRegion] = useState(own.region);
  // A table of another region is made through the connection as it acts there.
  const connection = connectionInRegion(own, region) ?? own;
  const [definition, setDefinition] = useState<TableDefinition>(blankDefinition);
  const [notes, setNotes] = useState<string[]>([]);
  const [showProblems, setShowProblems] = useState(false);
  const openTable = useWorkspaceStore((state) => state.openTable);
  const onDone = useCallback((_result: TableAdminResult) => tableSetChanged(connection.id), [connection.id]);
  const operation = useTableOperation(onDone);
  const { state } = operation;

  const problems = useMemo(() => {
    const local = validateDefinition(definition);
    return state.phase === 'failed' ? [...fieldsOf(state.error), ...local] : local;
  }, [definition, state]);
  const shownProblems = showProblems ? problems : [];
  const calls = useMemo(() => createTableCalls(definition), [definition]);
  const texts = useMemo(
    () => [
      { id: 'sdk', label: 'SDK v3', text: sdkText(calls) },
      { id: 'cli', label: 'AWS CLI', text: cliText(calls) },
      { id: 'cfn', label: 'CloudFormation', text: cloudFormationText(definition) },
      { id: 'cdk', label: 'CDK', text: tableCdkText(definition) },
    ],
    [calls, definition],
  );

  const isRunning = state.phase === 'running';
  const isDone = state.phase === 'done';
  const create = (): void => {
    setShowProblems(true);
    if (problems.length > 0) {
      // Take the user to the first field that needs them.
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>('.create-table-form .field-error')
          ?.scrollIntoView({ block: 'center' }),
      );
      return;
    }
    void operation.start({ channel: 'tables:create', input: { connectionId: connection.id, definition } });
  };

  return (
    <Dialog
      title={`Create table in ${own.label}${regions.length > 1 ? ` · ${region}` : ''}`}
      onClose={onClose}
      width="lg"
      onEnter={isRunning || isDone ? undefined : create}
      footer={
        <DialogActions
          status={
            <OperationStatus
              state={state}
              onCancel={operation.cancel}
              connectionId={connection.id}
              doneText="Created."
            />
          }
          closeLabel={isRunning ? 'Close (the create goes on)' : isDone ? 'Close' : 'Cancel'}
          onClose={onClose}
          primary={
            isDone ? (
              <Button
                variant="primary"
                onClick={() => {
                  openTable(tableKey(state.result.summary.name, region === own.region ? undefined : region));
                  onClose();
                }}
              >
                Open {state.result.summary.name}
              </Button>
            ) : (
              <Button variant="primary" onClick={create} isBusy={isRunning} disabled={isRunning}>
                Create table
              </Button>
            )
          }
        />
      }
    >
      <fieldset className="plain-fieldset" disabled={isRunning || isDone}>
        {regions.length > 1 ? (
          // A label, so a click on its words focuses the select, as on every other field.
          <label className="create-table-region">
            <span>Create in region</span>
            <Select
              label="Create in region"
              value={region}
              options={regions}
              labelOf={(r) => (r === own.region ? `${r} (this connection)` : r)}
              onChange={setRegion}
            />
          </label>
        ) : null}
        <StartFrom
          connection={own}
          onStart={(next, startNotes) => {
            setDefinition(next);
            setNotes(startNotes);
            setShowProblems(false);
            operation.reset();
          }}
        />
        {notes.length > 0 ? (
          <ul className="start-notes small" aria-label="About what was read">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        {connection.kind === 'playground' ? <p className="notice small">{LOCAL_CREATE_NOTE}</p> : null}
        <DefinitionForm value={definition} onChange={setDefinition} problems={shownProblems} />
        <RequestPreview texts={texts} title="What DynoTable will send" />
      </fieldset>
    </Dialog>
  );
}
