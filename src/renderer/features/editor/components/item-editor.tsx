import { useEffect, useRef, useState } from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import {
  formatDynamoJson,
  formatPlainJson,
  parseDynamoJson,
  parsePlainJson,
  plainJsonObstacle,
} from '../../../../shared/dynamo/item-json';
import { formatBytes, itemSize } from '../../../../shared/dynamo/item-size';
import { keyOf, validateItem } from '../../../../shared/dynamo/validate-item';
import { keyAttributes, viewKeyNames } from '../../../../shared/dynamo/key-model';
import { inKeyOrder } from '../../../../shared/dynamo/item-order';
import { planChange } from '../../../../shared/dynamo/write-plan';
import type { Connection } from '../../../../shared/ipc';
import type { IndexInfo, KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { UndoEntry, type UndoEntryHandle } from '../../journal/components/undo-entry';
import { ariaKeys, formatShortcut, matches } from '../../keyboard/shortcuts';
import { indexMoves } from '../index-keys';
import { writtenBy } from '../../journal/source-words';
import { editorKey, hasUnsavedEdits, useEditorStore, useEditorTable } from '../store';
import { ConflictView } from './conflict-view';
import { DiffList } from './diff-list';
import { FormView } from './form-view';
import { KeyTaken } from './key-taken';
import { RequestPreview, RequestToggle } from './request-preview';
import { TextView } from './text-view';

export interface ItemEditorProps {
  connection: Connection;
  table: string;
  keys: KeySchema;
  indexes: IndexInfo[];
  /** The grid's column order, which the JSON views follow after the key attributes. */
  columns?: readonly string[];
  /** The index the grid reads, whose key attributes the JSON views show after the table's key. */
  index?: string | undefined;
  onSaved(): void;
}

type ViewKind = 'form' | 'dynamodb' | 'plain';

function keyLabel(item: Item, keys: KeySchema): string {
  return Object.values(keyOf(item, keys))
    .map((v) => Object.values(v)[0] as string)
    .join(' · ');
}

/** What a keyboard user types in: the form's inputs and selects, and the JSON views' text. */
const FIELD = 'input, textarea, select, [contenteditable="true"]';

/** The field last focused in the editor when it is still there, else the editor's first one. */
function fieldToReturnTo(editor: HTMLElement | null, last: HTMLElement | null): HTMLElement | null {
  if (!editor) return null;
  if (last?.isConnected && editor.contains(last)) return last;
  return editor.querySelector<HTMLElement>(`.item-editor-body :is(${FIELD}):not(:disabled, [readonly])`);
}

/** The item editor: form and JSON views, validation at the spot, the exact request, save or stage. */
export function ItemEditor({ connection, table, keys, indexes, columns, index, onSaved }: ItemEditorProps) {
  const state = useEditorTable(connection.id, table);
  const store = useEditorStore();
  const [view, setView] = useState<ViewKind>('form');
  const [showRequest, setShowRequest] = useState(false);
  const aside = useRef<HTMLElement>(null);
  const undoSave = useRef<UndoEntryHandle>(null);
  // A save starts a JSON view's text again from the item saved: Ctrl+S typed there keeps focus there.
  const refocusText = useRef(false);
  // The field the user was last in: a save by mouse puts focus back there, where Ctrl+S leaves it.
  const lastField = useRef<HTMLElement | null>(null);
  // Ctrl+Z pressed while a save was on its way: the save is undone once it has landed.
  const undoWhenSaved = useRef(false);
  // Ctrl+Z after a save undoes the save once the editor holds no edit of the user's, as in apps
  // where typing and saving share one undo: a field's own undo had nothing of theirs left and
  // took the text back to before the save, an unsaved edit nobody asked for. A field holding
  // edits keeps its own undo (CodeMirror's marks the key as handled).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || !matches('undo-save', event)) return;
      const here = aside.current;
      const target = event.target;
      // In the editor, or nowhere (a clicked Save with no field to go back to lets go of focus).
      const isHere = target === document.body || (target instanceof Node && here?.contains(target));
      if (!here || !isHere || document.querySelector('dialog[open]')) return;
      const now = useEditorStore.getState().tables[editorKey(connection.id, table)]?.open;
      if (!now?.saved?.journalId || now.isSaving || hasUnsavedEdits(now)) return;
      event.preventDefault();
      undoSave.current?.start();
    };
    // Pressed while a save is on its way, Ctrl+Z is for the save, whose write may already have
    // landed: a field's own undo (run before this listener, so caught on the way down) took the
    // text back while the save went on, and the item stayed saved. It waits for the save instead.
    const onKeyDownFirst = (event: KeyboardEvent): void => {
      if (!matches('undo-save', event)) return;
      const here = aside.current;
      const target = event.target;
      const isHere = target === document.body || (target instanceof Node && here?.contains(target));
      if (!here || !isHere || document.querySelector('dialog[open]')) return;
      if (!useEditorStore.getState().tables[editorKey(connection.id, table)]?.open?.isSaving) return;
      event.preventDefault();
      event.stopPropagation();
      undoWhenSaved.current = true;
    };
    window.addEventListener('keydown', onKeyDownFirst, true);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDownFirst, true);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [connection.id, table]);
  const open = state.open;
  // The save that Ctrl+Z waited for has ended: undo it once it is there and nothing new is typed.
  const isSaving = open?.isSaving === true;
  useEffect(() => {
    if (isSaving || !undoWhenSaved.current) return;
    undoWhenSaved.current = false;
    const now = useEditorStore.getState().tables[editorKey(connection.id, table)]?.open;
    if (now?.saved?.journalId && !hasUnsavedEdits(now)) undoSave.current?.start();
  }, [isSaving, connection.id, table]);
  if (!open) return null;
  const key = editorKey(connection.id, table);
  const target = { connectionId: connection.id, table, keys };
  const indexKeys = indexes.flatMap((i) => keyAttributes(i.keys));
  const jsonKeys = viewKeyNames(keys, indexes.find((i) => i.name === index)?.keys);
  const moves = indexMoves(open.seen, open.draft, indexes);
  const issues = validateItem(open.draft, { keys, indexKeys });
  const planned = planChange({ table, keys }, { seen: open.seen, desired: open.draft });
  const plainObstacle = plainJsonObstacle(open.draft);
  const isValid = issues.length === 0;
  const canSave =
    isValid &&
    planned.kind !== 'none' &&
    !connection.readOnly &&
    !open.isSaving &&
    !open.isLoading &&
    !open.conflict;
  const title = open.seen ? keyLabel(open.seen, keys) || 'Item' : 'New item';
  // The text views start from the item once: another item, or this one loaded or saved, starts them again.
  const textKey = `${open.savedAt ?? 0}:${open.revision ?? 0}${title}${open.isLoading ? ' loading' : ''}`;
  return (
    <aside
      ref={aside}
      className="item-editor"
      aria-label="Item editor"
      onFocus={(event) => {
        if (event.target.matches(FIELD)) lastField.current = event.target;
      }}
      onKeyDown={(event) => {
        if (!matches('save-item', event.nativeEvent)) return;
        // Never the browser's "save page", even when there is nothing to save.
        event.preventDefault();
        if (!canSave) return;
        refocusText.current = event.target instanceof Element && event.target.closest('.text-view') !== null;
        void store.save(target).then((ok) => {
          if (ok) onSaved();
          // A refused save leaves the text as it is, focus in it.
          else refocusText.current = false;
        });
      }}
    >
      <header className="item-editor-header">
        <h2 title={title}>{title}</h2>
        <span className="muted">{formatBytes(itemSize(open.draft))} of 400 KB</span>
        <span className="toolbar-spacer" />
        <Button
          size="sm"
          variant="ghost"
          aria-label="Close the editor"
          onClick={() => store.guard(() => store.close(key), target)}
        >
          ×
        </Button>
      </header>
      {open.conflict ? (
        <ConflictView
          seen={open.seen}
          current={open.conflict.current}
          mine={open.conflict.mine}
          writtenBy={open.conflict.writtenBy}
          onResolve={(choice) => store.resolve(key, choice)}
        />
      ) : (
        <>
          <nav className="view-tabs" role="tablist" aria-label="Editor views">
            {(['form', 'dynamodb', 'plain'] as const).map((kind) => (
              <button
                key={kind}
                type="button"
                role="tab"
                aria-selected={view === kind}
                className={`view-tab${view === kind ? ' is-active' : ''}`}
                disabled={kind === 'plain' && plainObstacle !== undefined}
                title={kind === 'plain' ? plainObstacle : undefined}
                onClick={() => setView(kind)}
              >
                {kind === 'form' ? 'Form' : kind === 'dynamodb' ? 'DynamoDB JSON' : 'JSON'}
              </button>
            ))}
          </nav>
          <div className="item-editor-body">
            {open.followed ? (
              <p className="muted item-editor-followed" role="status">
                Shows what {writtenBy(open.followed.source, false)} stored just now.
              </p>
            ) : null}
            {moves.length > 0 ? (
              <div className="item-editor-index-moves" role="status" aria-label="Index keys changed">
                {moves.map((sentence) => (
                  <p key={sentence}>{sentence}</p>
                ))}
              </div>
            ) : null}
            {open.isLoading ? (
              <p className="muted" role="status">
                Loading the current item…
              </p>
            ) : null}
            {/* The row from the grid may be stale or an index's partial copy: edits wait for the
                whole, current item, which would otherwise replace them when it arrives. */}
            {view === 'form' ? (
              <fieldset className="item-editor-fields" disabled={open.isLoading}>
                <FormView
                  item={open.draft}
                  keys={keys}
                  indexes={indexes}
                  issues={issues}
                  onChange={(draft) => store.setDraft(key, draft)}
                />
              </fieldset>
            ) : null}
            {view === 'dynamodb' ? (
              <TextView
                key={`d${textKey}`}
                label="Item as DynamoDB JSON"
                item={open.draft}
                format={(item) => formatDynamoJson(inKeyOrder(item, jsonKeys, columns))}
                parse={parseDynamoJson}
                onChange={(draft) => store.setDraft(key, draft)}
                refocusRef={refocusText}
              />
            ) : null}
            {view === 'plain' ? (
              <TextView
                key={`p${textKey}`}
                label="Item as JSON"
                item={open.draft}
                format={(item) => formatPlainJson(inKeyOrder(item, jsonKeys, columns))}
                parse={parsePlainJson}
                onChange={(draft) => store.setDraft(key, draft)}
                refocusRef={refocusText}
              />
            ) : null}
            {view !== 'form' && issues.length > 0 ? (
              <ul className="issue-list" aria-label="Problems">
                {issues.map((issue) => (
                  <li key={`${issue.path.join('.')}${issue.message}`} className="field-error">
                    {issue.path.length > 0 ? <code>{issue.path.join('.')}</code> : null} {issue.message}
                  </li>
                ))}
              </ul>
            ) : null}
            <h3 className="item-editor-section">Changes</h3>
            <DiffList changes={planned.diff} />
            {planned.coverage && planned.coverage.checked < planned.coverage.total ? (
              <p className="muted">
                The condition checks {planned.coverage.checked} of {planned.coverage.total} attributes
                (DynamoDB limits expressions to 4 KB); the ones you changed are always checked.
              </p>
            ) : null}
            {planned.request ? (
              <RequestToggle isShown={showRequest} onToggle={() => setShowRequest(!showRequest)} />
            ) : null}
            {showRequest && planned.request ? (
              <RequestPreview request={planned.request} connection={connection} />
            ) : null}
          </div>
        </>
      )}
      {open.keyTaken ? (
        <KeyTaken
          keyLabel={keyLabel(open.draft, keys)}
          code={open.error?.code ?? 'ConditionalCheckFailedException'}
          onOpen={() => {
            const go = () => void store.openItem(target, open.keyTaken?.current ?? keyOf(open.draft, keys));
            // A draft that holds only the key loses nothing: the item opened has that key. One
            // with more asks first, like any other step that would drop typing.
            const isKeyOnly = Object.keys(open.draft).every(
              (name) => name === keys.partitionKey.name || name === keys.sortKey?.name,
            );
            if (isKeyOnly) go();
            else store.guard(go, target);
          }}
        />
      ) : open.error && !open.conflict ? (
        <ErrorMessage compact error={open.error} connectionId={connection.id} />
      ) : null}
      {open.conflict ? null : (
        <footer className="item-editor-footer">
          {/* Always present, so the screen reader hears "Saved" when the text appears in it. */}
          <span className="muted" role="status">
            {open.savedAt && planned.kind === 'none' ? 'Saved' : ''}
          </span>
          {open.saved?.journalId ? (
            <UndoEntry
              key={open.saved.journalId}
              ref={undoSave}
              connection={connection}
              entryId={open.saved.journalId}
              // Beside "Saved", "Undo" says which; a name holding "save" would also answer to Save.
              label="Undo"
              title={`Undo this save: put the item back as it was before it (${formatShortcut('undo-save')})`}
              keys={ariaKeys('undo-save')}
              isRedoOffered
            />
          ) : null}
          {open.saved?.journalProblem ? (
            <span className="muted small">{open.saved.journalProblem}</span>
          ) : null}
          <span className="toolbar-spacer" />
          {open.seen ? (
            <Button
              variant="ghost"
              onClick={() => {
                store.stage(target, { seen: open.seen, desired: null });
                store.close(key);
              }}
            >
              Stage delete
            </Button>
          ) : null}
          <Button
            disabled={!isValid || planned.kind === 'none'}
            onClick={() => {
              store.stage(target, { seen: open.seen, desired: open.draft });
              store.close(key);
            }}
          >
            Stage
          </Button>
          <Button
            variant="primary"
            disabled={!canSave}
            isBusy={open.isSaving}
            title={connection.readOnly ? 'This connection is read-only.' : undefined}
            aria-keyshortcuts={ariaKeys('save-item')}
            onClick={() => {
              // Save turns disabled while it saves and lets go of focus, to the page: focus goes
              // back to the field the user was in first, as after Ctrl+S (a JSON view's text,
              // started again from the item saved, takes it as it does after Ctrl+S).
              const field = fieldToReturnTo(aside.current, lastField.current);
              refocusText.current = field?.closest('.text-view') != null;
              field?.focus({ preventScroll: true });
              void store.save(target).then((ok) => {
                if (ok) onSaved();
                else refocusText.current = false;
              });
            }}
          >
            {open.seen ? 'Save' : 'Create'}
          </Button>
        </footer>
      )}
    </aside>
  );
}
