import { useState } from 'react';
import { needsTypedConfirmation } from '../../../../shared/dynamo/confirmation';
import { diffItems } from '../../../../shared/dynamo/diff';
import { planChange } from '../../../../shared/dynamo/write-plan';
import type { Connection } from '../../../../shared/ipc';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { ErrorMessage } from '../../../ui/error-message';
import { expiredSessionError } from '../expired-session';
import { editorKey, useEditorStore, useEditorTable } from '../store';
import { UndoEntry } from '../../journal/components/undo-entry';
import { DiffList } from './diff-list';
import { RequestPreview } from './request-preview';
import { ownValue } from '../../../../shared/dynamo/proto-keys';

export interface StagedPanelProps {
  connection: Connection;
  table: string;
  keys: KeySchema;
  onCommitted(): void;
}

/** Staged edits: each with its diff and request; committed together in transactions. */
export function StagedPanel({ connection, table, keys, onCommitted }: StagedPanelProps) {
  const state = useEditorTable(connection.id, table);
  const unstage = useEditorStore((s) => s.unstage);
  const commit = useEditorStore((s) => s.commit);
  const [openId, setOpenId] = useState<string>();
  const [typed, setTyped] = useState('');
  const key = editorKey(connection.id, table);
  const deletes = state.staged.filter((s) => s.desired === null).length;
  const needsName =
    deletes > 0 && needsTypedConfirmation('commit-with-deletes', deletes, connection.isProduction);
  if (state.staged.length === 0) {
    const written = state.lastCommit?.written ?? 0;
    const { journalId, journalProblem } = state.lastCommit ?? {};
    return state.lastCommit ? (
      <div className="commit-done">
        <p className="commit-confirmation" role="status">
          Committed: {written} item{written === 1 ? '' : 's'} written.
          {journalProblem ? ` ${journalProblem}` : ''}
        </p>
        {journalId ? (
          <UndoEntry connection={connection} entryId={journalId} label="Undo this commit" />
        ) : null}
      </div>
    ) : null;
  }
  const expired = expiredSessionError(state.staged);
  return (
    <section className="staged-panel" aria-label="Staged changes">
      <header className="staged-header">
        <h2>
          {state.staged.length} staged change{state.staged.length === 1 ? '' : 's'}
        </h2>
        <span className="muted">
          committed as{' '}
          {state.staged.length > 1
            ? 'TransactWriteItems (all or nothing per 100 actions)'
            : 'one conditional write'}
        </span>
        <span className="toolbar-spacer" />
        {needsName ? (
          <ConfirmTableInput className="staged-confirm" table={table} value={typed} onChange={setTyped} />
        ) : null}
        <Button
          variant="primary"
          isBusy={state.isCommitting}
          disabled={connection.readOnly || (needsName && typed !== table)}
          onClick={() =>
            void commit({ connectionId: connection.id, table, keys }, needsName ? typed : undefined).then(
              onCommitted,
            )
          }
        >
          {state.token && state.commitError ? 'Retry commit' : 'Commit'}
        </Button>
      </header>
      {state.lastCommit && state.lastCommit.written > 0 ? (
        <p className="muted" role="status">
          {state.lastCommit.written} item{state.lastCommit.written === 1 ? '' : 's'} written;{' '}
          {state.lastCommit.remaining} not written (see below).
        </p>
      ) : null}
      {state.commitError ? (
        <ErrorMessage compact error={state.commitError} connectionId={connection.id} />
      ) : expired ? (
        <ErrorMessage compact error={expired} connectionId={connection.id} />
      ) : null}
      <ul className="staged-list">
        {state.staged.map((entry) => {
          const plan = planChange({ table, keys }, { seen: entry.seen, desired: entry.desired });
          const status = entry.result?.status;
          return (
            <li key={entry.id} className={`staged-item${status ? ` is-${status}` : ''}`}>
              <div className="staged-line">
                <span className="cell-type">{plan.kind}</span>
                <code>{keyText(entry, keys)}</code>
                {entry.result && status !== 'written' ? (
                  <span className="staged-reason" role="alert">
                    {/* The sentence and its way out stand once above the list. */}
                    {expired && entry.result.canSignIn
                      ? 'Not written: the session expired before it was sent.'
                      : entry.result.message}
                  </span>
                ) : null}
                <span className="toolbar-spacer" />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-expanded={openId === entry.id}
                  onClick={() => setOpenId(openId === entry.id ? undefined : entry.id)}
                >
                  Details
                </Button>
                <Button size="sm" variant="ghost" onClick={() => unstage(key, entry.id)}>
                  Discard
                </Button>
              </div>
              {openId === entry.id ? (
                <div className="staged-details">
                  <DiffList changes={diffItems(entry.seen ?? {}, entry.desired ?? {})} />
                  {entry.result?.current ? (
                    <p className="muted">
                      Stored now: <code>{JSON.stringify(entry.result.current).slice(0, 300)}</code>
                    </p>
                  ) : null}
                  {plan.request ? <RequestPreview request={plan.request} connection={connection} /> : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function keyText(
  entry: { seen: Record<string, unknown> | null; desired: Record<string, unknown> | null },
  keys: KeySchema,
): string {
  const item = (entry.seen ?? entry.desired ?? {}) as Record<string, Record<string, string>>;
  return [keys.partitionKey.name, keys.sortKey?.name]
    .filter((n): n is string => n !== undefined)
    .map((n) => Object.values(ownValue(item, n) ?? {})[0] ?? '')
    .join(' · ');
}
