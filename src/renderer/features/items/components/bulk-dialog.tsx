import { useEffect, useRef, useState } from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import { keyOf } from '../../../../shared/dynamo/validate-item';
import type { KeySchema } from '../../../../shared/ipc/tables';
import type { Connection } from '../../../../shared/ipc';
import type { BulkAction } from '../../../../shared/ipc/items';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { ChoiceGroup } from '../../../ui/choice-group';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { Dialog, DialogActions } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import type { AppError } from '../../../../shared/ipc';
import { parseAttributePath } from '../../query/attribute-path';
import { scalarTypes, typedValue, type ScalarType } from '../../query/builder-state';
import { typeLabel } from '../../../../shared/dynamo/attribute-value';
import { useOperation } from '../../operations/store';
import { OperationStatus } from '../../operations/components/operation-report';
import { UndoEntry } from '../../journal/components/undo-entry';
import { moveFocus } from '../../../ui/move-focus';

export interface BulkDialogProps {
  connection: Connection;
  table: string;
  resultSetId: string;
  selected: Item[];
  names: string[];
  keys: KeySchema;
  onClose(): void;
}

function keyLabel(item: Item, keys: KeySchema): string {
  return Object.values(keyOf(item, keys))
    .map((value) => JSON.stringify(Object.values(value)[0]))
    .join(' · ');
}

const actions = [
  { value: 'delete', label: 'Delete' },
  { value: 'update', label: 'Update' },
] as const;

type Preview = {
  count: number;
  sample: Item[];
  request: Record<string, unknown> | null;
  needsConfirmation: boolean;
};

/** Bulk delete or update of selected or all queried items: preview (count, sample, request) before anything runs. */
export function BulkDialog({
  connection,
  table,
  resultSetId,
  selected,
  names,
  keys,
  onClose,
}: BulkDialogProps) {
  // No destructive default: the selection (even an empty one), and no action until one is chosen.
  const [scope, setScope] = useState<'selected' | 'all'>('selected');
  const [kind, setKind] = useState<'delete' | 'update'>();
  const [setPath, setSetPath] = useState('');
  const [setType, setSetType] = useState<ScalarType>('S');
  const [setText, setSetText] = useState('');
  const [removePath, setRemovePath] = useState('');
  const [isSafe, setSafe] = useState(true);
  const [preview, setPreview] = useState<Preview>();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<AppError>();
  const [requestId, setRequestId] = useState<string>();
  const runButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  const isNothingSelected = scope === 'selected' && selected.length === 0;
  const action = (): BulkAction | string => {
    if (!kind) return 'Choose Delete or Update.';
    if (kind === 'delete') return { type: 'delete' };
    const set = [];
    if (setPath) {
      const path = parseAttributePath(setPath, names);
      const value = typedValue(setType, setText);
      if (typeof path === 'string') return path;
      if (typeof value === 'string') return value;
      set.push({ path, value });
    }
    const remove = [];
    if (removePath) {
      const path = parseAttributePath(removePath, names);
      if (typeof path === 'string') return path;
      remove.push(path);
    }
    return { type: 'update', set, remove };
  };
  const payload = () => {
    const built = action();
    if (typeof built === 'string') return built;
    return {
      connectionId: connection.id,
      table,
      source: scope === 'selected' ? { items: selected } : { resultSetId },
      action: built,
      conditionOnSeen: isSafe,
    };
  };
  const problem = (message: string): void => setError({ code: 'InvalidInput', message, retryable: false });
  // Any change to what the write would do makes the preview stale: the button it brings writes
  // what was previewed or nothing.
  const stale =
    <T,>(set: (value: T) => void) =>
    (value: T): void => {
      set(value);
      setPreview(undefined);
    };

  const showPreview = (): void => {
    const body = payload();
    if (typeof body === 'string') {
      problem(body);
      return;
    }
    void call('bulk:preview', body).then((r) => {
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setPreview(r.value);
      setError(undefined);
    });
  };
  const run = (needsConfirmation: boolean): void => {
    const body = payload();
    if (typeof body === 'string') {
      problem(body);
      return;
    }
    const id = newRequestId('bulk');
    setRequestId(id);
    // Enter in the confirmation field starts it, and the form's fields turn disabled: focus goes
    // to the pressed button, busy while the change runs, rather than to the page.
    if (runButton.current) moveFocus(runButton.current);
    void call('bulk:start', {
      ...body,
      requestId: id,
      ...(needsConfirmation ? { confirmTable: typed } : {}),
    }).then((r) => {
      if (!r.ok) {
        setError(r.error);
        setRequestId(undefined);
      }
    });
  };
  const isFinished = useOperation(requestId)?.isFinished === true;
  const isRunning = !isFinished && requestId !== undefined;
  // When the change ends, the pressed button turns disabled (and the progress line's Cancel goes):
  // focus would drop to the page. It goes to Close, the outcome and its Undo just before it.
  useEffect(() => {
    const focused = document.activeElement;
    const isLost =
      !focused || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
    if (isFinished && isLost && closeButton.current) moveFocus(closeButton.current);
  }, [isFinished]);
  const canPreview = !preview && !isNothingSelected && kind !== undefined;
  const canRun =
    preview !== undefined &&
    requestId === undefined &&
    !connection.readOnly &&
    (!preview.needsConfirmation || typed === table);
  // Nothing selected: the note under the choice says it, and what to do.
  const hint = isNothingSelected
    ? undefined
    : !kind
      ? 'Choose Delete or Update.'
      : preview && requestId === undefined
        ? connection.readOnly
          ? 'This connection is read-only.'
          : preview.needsConfirmation && typed !== table
            ? 'Type the table name to confirm.'
            : undefined
        : undefined;

  return (
    <Dialog
      title={
        kind === 'delete' ? 'Delete items' : kind === 'update' ? 'Update items' : 'Delete or update items'
      }
      onClose={onClose}
      width="lg"
      // Enter runs the next step: the preview, then the write it showed.
      onEnter={canPreview ? showPreview : canRun ? () => run(preview.needsConfirmation) : undefined}
      footer={
        <DialogActions
          status={hint ? <span className="muted">{hint}</span> : undefined}
          closeLabel={isRunning ? 'Close (the change goes on)' : requestId === undefined ? 'Cancel' : 'Close'}
          onClose={onClose}
          closeRef={closeButton}
          primary={
            !preview ? (
              <Button variant="primary" disabled={!canPreview} onClick={showPreview}>
                Preview
              </Button>
            ) : (
              <Button
                ref={runButton}
                variant="danger"
                disabled={!canRun && !isRunning}
                isBusy={isRunning}
                onClick={() => run(preview.needsConfirmation)}
              >
                {kind === 'delete' ? 'Delete' : 'Update'} {preview.count.toLocaleString('en-US')}
              </Button>
            )
          }
        />
      }
    >
      <fieldset className="bulk-form plain-fieldset" disabled={requestId !== undefined}>
        <ChoiceGroup
          legend="Which items"
          value={scope}
          choices={[
            { value: 'selected', label: `${selected.length.toLocaleString('en-US')} selected` },
            { value: 'all', label: 'Every queried item' },
          ]}
          onChange={stale(setScope)}
        >
          {isNothingSelected ? (
            <p className="muted bulk-note" role="status">
              Nothing is selected. Select rows in the grid first (Shift-click selects a range), or choose
              Every queried item.
            </p>
          ) : null}
        </ChoiceGroup>
        <ChoiceGroup legend="Action" value={kind} choices={actions} onChange={stale(setKind)}>
          {kind === 'update' ? (
            <div className="qb-row">
              <span>Set</span>
              <TextInput
                label="Attribute to set"
                placeholder="attribute"
                value={setPath}
                onChange={stale(setSetPath)}
              />
              <Select<ScalarType>
                className="qb-type"
                label="Type of the new value"
                value={setType}
                options={scalarTypes}
                labelOf={typeLabel}
                onChange={stale(setSetType)}
              />
              <TextInput
                label="New value"
                placeholder="new value"
                value={setText}
                onChange={stale(setSetText)}
              />
            </div>
          ) : null}
          {kind === 'update' ? (
            // A line of its own: beside Set, the box wrapped away from its word at 1024 px.
            <div className="qb-row">
              <span>Remove</span>
              <TextInput
                label="Attribute to remove"
                placeholder="attribute"
                value={removePath}
                onChange={stale(setRemovePath)}
              />
            </div>
          ) : null}
          <Check
            checked={isSafe}
            onChange={stale(setSafe)}
            title="Each write also requires the item to still be as it was read"
          >
            Only items unchanged since they were read
          </Check>
        </ChoiceGroup>
        {preview ? (
          <div className="bulk-preview">
            <p>
              <strong>{preview.count.toLocaleString('en-US')}</strong> item{preview.count === 1 ? '' : 's'}{' '}
              will be {kind === 'delete' ? 'deleted' : 'updated'}, one conditional request each. First of
              them:
            </p>
            <ul className="bulk-sample" aria-label="Sample">
              {preview.sample.map((item) => {
                const label = keyLabel(item, keys);
                return (
                  <li key={label}>
                    <code>{label}</code>
                  </li>
                );
              })}
            </ul>
            {preview.request ? (
              <pre className="code-block">{JSON.stringify(preview.request, null, 2)}</pre>
            ) : null}
            {preview.needsConfirmation ? (
              <ConfirmTableInput confirms="the bulk change" table={table} value={typed} onChange={setTyped} />
            ) : null}
          </div>
        ) : null}
      </fieldset>
      <div className="bulk-form">
        {error ? <ErrorMessage compact error={error} connectionId={connection.id} /> : null}
        {requestId ? (
          <OperationStatus
            channel="bulk:start"
            requestId={requestId}
            connectionId={connection.id}
            render={(report) => {
              return (
                <>
                  <p>
                    {report.succeeded} done, {report.conflicts} changed since read (left alone),{' '}
                    {report.failed} failed.
                    {report.failures.length > 0 ? ` First problem: ${report.failures[0]?.message ?? ''}` : ''}
                    {report.journalProblem ? ` ${report.journalProblem}` : ''}
                  </p>
                  {report.journalId ? (
                    <UndoEntry
                      connection={connection}
                      entryId={report.journalId}
                      label="Undo this bulk change"
                      isRedoOffered
                    />
                  ) : null}
                </>
              );
            }}
          />
        ) : null}
      </div>
    </Dialog>
  );
}
