import { useState } from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import { keyOf } from '../../../../shared/dynamo/validate-item';
import type { KeySchema } from '../../../../shared/ipc/tables';
import type { Connection } from '../../../../shared/ipc';
import type { BulkAction } from '../../../../shared/ipc/items';
import { call, newRequestId } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import type { AppError } from '../../../../shared/ipc';
import { parseAttributePath } from '../../query/attribute-path';
import { typedValue, type ScalarType } from '../../query/builder-state';
import { OperationStatus } from '../../operations/components/operation-report';
import { UndoEntry } from '../../journal/components/undo-entry';

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
  // Another scope or kind makes the preview stale.
  const rescope = (next: 'selected' | 'all'): void => {
    setScope(next);
    setPreview(undefined);
  };
  const rekind = (next: 'delete' | 'update'): void => {
    setKind(next);
    setPreview(undefined);
  };

  const footer = (
    <>
      <Button onClick={onClose}>Close</Button>
      {!preview ? (
        <Button
          variant="primary"
          disabled={isNothingSelected || !kind}
          title={
            isNothingSelected ? 'Nothing is selected.' : !kind ? 'Choose Delete or Update first.' : undefined
          }
          onClick={() => {
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
          }}
        >
          Preview
        </Button>
      ) : (
        <Button
          variant="danger"
          disabled={
            requestId !== undefined || connection.readOnly || (preview.needsConfirmation && typed !== table)
          }
          onClick={() => {
            const body = payload();
            if (typeof body === 'string') {
              problem(body);
              return;
            }
            const id = newRequestId('bulk');
            setRequestId(id);
            void call('bulk:start', {
              ...body,
              requestId: id,
              ...(preview.needsConfirmation ? { confirmTable: typed } : {}),
            }).then((r) => {
              if (!r.ok) {
                setError(r.error);
                setRequestId(undefined);
              }
            });
          }}
        >
          {kind === 'delete' ? 'Delete' : 'Update'} {preview.count.toLocaleString('en-US')}
        </Button>
      )}
    </>
  );

  return (
    <Dialog
      title={
        kind === 'delete' ? 'Delete items' : kind === 'update' ? 'Update items' : 'Delete or update items'
      }
      onClose={onClose}
      width="lg"
      footer={footer}
    >
      <div className="bulk-form">
        <div className="qb-row" role="radiogroup" aria-label="Which items">
          <Check type="radio" checked={scope === 'selected'} onChange={() => rescope('selected')}>
            {selected.length.toLocaleString('en-US')} selected
          </Check>
          <Check type="radio" checked={scope === 'all'} onChange={() => rescope('all')}>
            Every queried item
          </Check>
        </div>
        {isNothingSelected ? (
          <p className="muted bulk-note" role="status">
            Nothing is selected. Select rows in the grid first (Shift-click selects a range), or choose Every
            queried item.
          </p>
        ) : null}
        <div className="qb-row">
          <span className="qb-row" role="radiogroup" aria-label="Action">
            <Check type="radio" checked={kind === 'delete'} onChange={() => rekind('delete')}>
              Delete
            </Check>
            <Check type="radio" checked={kind === 'update'} onChange={() => rekind('update')}>
              Update
            </Check>
          </span>
          <Check
            checked={isSafe}
            onChange={setSafe}
            title="Each write also requires the item to still be as it was read"
          >
            Only items unchanged since they were read
          </Check>
        </div>
        {kind === 'update' ? (
          <div className="qb-row">
            <span>Set</span>
            <TextInput
              label="Attribute to set"
              placeholder="attribute"
              value={setPath}
              onChange={setSetPath}
            />
            <Select<ScalarType>
              className="qb-type"
              label="Type of the new value"
              value={setType}
              options={['S', 'N', 'B', 'BOOL', 'NULL']}
              onChange={setSetType}
            />
            <TextInput label="New value" value={setText} onChange={setSetText} />
            <span>Remove</span>
            <TextInput
              label="Attribute to remove"
              placeholder="attribute"
              value={removePath}
              onChange={setRemovePath}
            />
          </div>
        ) : null}
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
