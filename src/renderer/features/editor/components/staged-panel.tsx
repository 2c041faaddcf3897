import { useId, useState } from 'react';
import { needsTypedConfirmation } from '../../../../shared/dynamo/confirmation';
import { diffItems } from '../../../../shared/dynamo/diff';
import { type ChangeKind, planChange } from '../../../../shared/dynamo/write-plan';
import type { Connection } from '../../../../shared/ipc';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { ConfirmTableInput } from '../../../ui/confirm-table-input';
import { ErrorMessage } from '../../../ui/error-message';
import { expiredSessionError } from '../expired-session';
import { editorKey, useEditorStore, useEditorTable } from '../store';
import { CommitToast } from '../../journal/components/commit-toast';
import { DiffList } from './diff-list';
import { RequestPreview } from './request-preview';
import { ownValue } from '../../../../shared/dynamo/proto-keys';

export interface StagedPanelProps {
  connection: Connection;
  table: string;
  keys: KeySchema;
  onCommitted(): void;
}

const kindWords: Record<ChangeKind, [string, string]> = {
  create: ['create', 'creates'],
  update: ['update', 'updates'],
  delete: ['delete', 'deletes'],
  'key-change': ['key change', 'key changes'],
  none: ['unchanged', 'unchanged'],
};

/** "3 updates, 1 delete": what the list holds, for the summary line when the list is folded. */
function kindSummary(kinds: ChangeKind[]): string {
  const counts = new Map<ChangeKind, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kindWords[kind][n === 1 ? 0 : 1]}`).join(', ');
}

/** A couple of lines never crowd the grid; a longer list folds into its summary line until asked for. */
const UNFOLDED_UP_TO = 2;

/**
 * Staged edits: a summary line with Commit that is always there, and the list (each with its
 * diff and request) that folds away so the grid keeps its rows in a small window. Committed
 * together in transactions.
 */
export function StagedPanel({ connection, table, keys, onCommitted }: StagedPanelProps) {
  const state = useEditorTable(connection.id, table);
  const unstage = useEditorStore((s) => s.unstage);
  const commit = useEditorStore((s) => s.commit);
  const dismissCommit = useEditorStore((s) => s.dismissCommit);
  const [openId, setOpenId] = useState<string>();
  const [typed, setTyped] = useState('');
  // Undefined until the user chooses: then the list follows its length and its failures.
  const [isListChosenOpen, setListChosenOpen] = useState<boolean>();
  const listId = useId();
  const key = editorKey(connection.id, table);
  const deletes = state.staged.filter((s) => s.desired === null).length;
  const needsName =
    deletes > 0 && needsTypedConfirmation('commit-with-deletes', deletes, connection.isProduction);
  if (state.staged.length === 0) {
    const written = state.lastCommit?.written ?? 0;
    const { journalId, journalProblem } = state.lastCommit ?? {};
    return state.lastCommit ? (
      <CommitToast
        key={journalId ?? 'no-journal'}
        connection={connection}
        message={`Committed: ${written} item${written === 1 ? '' : 's'} written.${journalProblem ? ` ${journalProblem}` : ''}`}
        journalId={journalId}
        onDismiss={() => dismissCommit(key)}
      />
    ) : null;
  }
  const expired = expiredSessionError(state.staged);
  const plans = state.staged.map((entry) =>
    planChange({ table, keys }, { seen: entry.seen, desired: entry.desired }),
  );
  const hasFailures = state.staged.some((entry) => entry.result && entry.result.status !== 'written');
  // A change that was not written always shows why: its line is where the sentence is.
  const isListOpen = hasFailures || (isListChosenOpen ?? state.staged.length <= UNFOLDED_UP_TO);
  const how =
    state.staged.length > 1
      ? 'committed as TransactWriteItems (all or nothing per 100 actions)'
      : 'committed as one conditional write';
  return (
    <section className={`staged-panel${isListOpen ? '' : ' is-folded'}`} aria-label="Staged changes">
      <header className="staged-header">
        <h2>
          {state.staged.length} staged change{state.staged.length === 1 ? '' : 's'}
        </h2>
        <span className="staged-summary muted" title={how}>
          {kindSummary(plans.map((plan) => plan.kind))} · {how}
        </span>
        <span className="toolbar-spacer" />
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={isListOpen}
          aria-controls={listId}
          disabled={hasFailures}
          title={hasFailures ? 'The list stays open while a change was not written' : undefined}
          onClick={() => setListChosenOpen(!isListOpen)}
        >
          {isListOpen ? 'Hide list' : 'Show list'}
        </Button>
        {needsName ? (
          <ConfirmTableInput
            className="staged-confirm"
            confirms="the staged writes"
            table={table}
            value={typed}
            onChange={setTyped}
          />
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
      <ul className="staged-list" id={listId} hidden={!isListOpen}>
        {state.staged.map((entry, index) => {
          const plan = plans[index]!;
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
