import { create } from 'zustand';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { diffItems, rebaseChanges } from '../../../shared/dynamo/diff';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { itemsEqual, valuesEqual } from '../../../shared/dynamo/value-equality';
import { newRequestToken } from '../../../shared/dynamo/write-plan';
import type { AppError } from '../../../shared/ipc';
import type { ChangeResult } from '../../../shared/ipc/items';
import type { KeySchema } from '../../../shared/ipc/tables';
import type { WriteSource } from '../../../shared/ipc/write-source';
import { writtenBy } from '../journal/source-words';
import { call } from '../../ipc/client';

export interface StagedEntry {
  id: string;
  seen: Item | null;
  desired: Item | null;
  result?: ChangeResult;
}

export interface OpenItem {
  /** As loaded (null for a new item): the write is conditioned on it. */
  seen: Item | null;
  draft: Item;
  /**
   * The item as it was before a write elsewhere deleted it, while the editor still shows it
   * unchanged: a draft equal to it holds nothing the user typed, so leaving asks nothing.
   */
  deletedItem?: Item;
  isLoading?: boolean;
  isSaving?: boolean;
  error?: AppError;
  /**
   * Set when a save found the item changed by someone else, or (with `writtenBy`) when another
   * write DynoTable made changed it while this one had unsaved edits.
   */
  conflict?: { current: Item | null; mine: Item; writtenBy?: WrittenBy };
  /** Set when the item was refreshed to what another write DynoTable made stored. */
  followed?: WrittenBy;
  /** Bumped when the item shown is replaced by another version, so text views start again. */
  revision?: number;
  /** Set when a create found its key taken: the stored item (when DynamoDB returned it). */
  keyTaken?: { current: Item | null };
  savedAt?: number;
  /**
   * The last save's undo journal entry (its Undo, or Ctrl+Z once the text holds no edit of
   * the user's), or why the save could not be kept for undo.
   */
  saved?: { journalId?: string; journalProblem?: string };
}

export interface EditorTableState {
  staged: StagedEntry[];
  /** Reused when a commit of the same staged list is retried, so DynamoDB applies it once. */
  token?: string;
  isCommitting: boolean;
  commitError?: AppError;
  /** How the last commit ended, for its confirmation line (cleared when something is staged). */
  lastCommit?: { written: number; remaining: number; journalId?: string; journalProblem?: string };
  open?: OpenItem;
}

const empty: EditorTableState = { staged: [], isCommitting: false };
let counter = 0;

interface Target {
  connectionId: string;
  table: string;
  keys: KeySchema;
}

/** Another write DynoTable made to the open item, and who asked for it. */
export interface WrittenBy {
  source?: WriteSource;
}

/** A step that would drop unsaved edits, waiting for the user's Save / Discard / Cancel. */
export interface Leaving {
  connectionId: string;
  table: string;
  proceed(): void;
}

interface EditorStore {
  tables: Record<string, EditorTableState>;
  leaving?: Leaving;
  /**
   * Runs `proceed` at once unless an item editor (of this table, or any) has unsaved edits;
   * then asks first (see `leave`).
   */
  guard(proceed: () => void, only?: { connectionId: string; table: string }): void;
  /** The user's answer to the question `guard` asked. */
  leave(choice: 'save' | 'discard' | 'cancel'): Promise<void>;
  patch(key: string, change: Partial<EditorTableState>): void;
  openItem(target: Target, row: Item): Promise<void>;
  openNew(target: Target): void;
  close(key: string): void;
  setDraft(key: string, draft: Item): void;
  save(target: Pick<Target, 'connectionId' | 'table'>): Promise<boolean>;
  stage(target: Target, change: { seen: Item | null; desired: Item | null }): void;
  unstage(key: string, id: string): void;
  commit(target: Target, confirmTable?: string): Promise<void>;
  /** The commit's confirmation went away (timed out or dismissed). */
  dismissCommit(key: string): void;
  resolve(key: string, choice: 'apply-mine' | 'take-theirs' | 'overwrite'): void;
  /** DynoTable wrote these items (null: deleted): an open one follows, or shows the three-way view. */
  written(
    connectionId: string,
    table: string,
    source: WriteSource | undefined,
    items: { key: Item; item: Item | null }[],
  ): void;
}

export const editorKey = (connectionId: string, table: string): string => `${connectionId}\u0000${table}`;

/** Whether `key` (a table key, as a written event carries it) names `item`. */
function isKeyOf(key: Item, item: Item): boolean {
  const names = Object.keys(key);
  return (
    names.length > 0 &&
    names.every((name) => {
      const a = ownValue(key, name);
      const b = ownValue(item, name);
      return a !== undefined && b !== undefined && valuesEqual(a, b);
    })
  );
}

function deletedError(by: WrittenBy): AppError {
  return {
    code: 'NotFound',
    message: `This item was deleted by ${writtenBy(by.source, true)}. Saving creates it again.`,
    retryable: false,
  };
}

function sameItem(a: Item | null, b: Item | null, keys: KeySchema): boolean {
  return a !== null && b !== null && itemsEqual(keyOf(a, keys), keyOf(b, keys));
}

/** Whether an open editor holds edits that are not saved. */
export function hasUnsavedEdits(open: OpenItem | undefined): boolean {
  if (!open || open.isLoading) return false;
  return open.conflict !== undefined || !itemsEqual(open.draft, open.seen ?? open.deletedItem ?? {});
}

export const useEditorStore = create<EditorStore>()((set, get) => ({
  tables: {},
  guard(proceed, only) {
    const entry = Object.entries(get().tables).find(
      ([key, state]) =>
        (!only || key === editorKey(only.connectionId, only.table)) && hasUnsavedEdits(state.open),
    );
    if (!entry) {
      proceed();
      return;
    }
    const [connectionId = '', table = ''] = entry[0].split('\u0000');
    set({ leaving: { connectionId, table, proceed } });
  },
  async leave(choice) {
    const leaving = get().leaving;
    set({ leaving: undefined });
    if (!leaving || choice === 'cancel') return;
    const key = editorKey(leaving.connectionId, leaving.table);
    if (choice === 'discard') get().close(key);
    // A save that fails (a conflict, a refused value) leaves the editor showing why, and stays.
    else if (!(await get().save({ connectionId: leaving.connectionId, table: leaving.table }))) return;
    leaving.proceed();
  },
  patch(key, change) {
    set((state) => ({ tables: { ...state.tables, [key]: { ...(state.tables[key] ?? empty), ...change } } }));
  },
  async openItem({ connectionId, table, keys }, row) {
    const key = editorKey(connectionId, table);
    get().patch(key, { open: { seen: row, draft: row, isLoading: true } });
    // Load the whole, current item: a grid row may come from a partial index or be stale.
    const envelope = await call('items:get', {
      connectionId,
      table,
      key: keyOf(row, keys),
      consistent: true,
    });
    if (!envelope.ok) get().patch(key, { open: { seen: row, draft: row, error: envelope.error } });
    else if (!envelope.value.item)
      get().patch(key, {
        open: {
          seen: null,
          draft: row,
          error: {
            code: 'NotFound',
            message: 'This item no longer exists. Saving creates it again.',
            retryable: false,
          },
        },
      });
    else get().patch(key, { open: { seen: envelope.value.item, draft: envelope.value.item } });
  },
  openNew({ connectionId, table }) {
    get().patch(editorKey(connectionId, table), { open: { seen: null, draft: {} } });
  },
  close(key) {
    get().patch(key, { open: undefined });
  },
  setDraft(key, draft) {
    const open = get().tables[key]?.open;
    // Until the current item has loaded, an edit would be lost under it (the form is disabled).
    if (open && !open.isLoading)
      get().patch(key, {
        open: { ...open, draft, error: undefined, keyTaken: undefined, followed: undefined },
      });
  },
  async save({ connectionId, table }) {
    const key = editorKey(connectionId, table);
    const open = get().tables[key]?.open;
    if (!open) return false;
    get().patch(key, { open: { ...open, isSaving: true, error: undefined } });
    const envelope = open.seen
      ? await call('items:update', { connectionId, table, seen: open.seen, desired: open.draft })
      : await call('items:create', { connectionId, table, item: open.draft });
    if (envelope.ok) {
      const item = envelope.value.item ?? open.draft;
      const { journalId, journalProblem } = envelope.value;
      get().patch(key, {
        open: {
          seen: item,
          draft: item,
          savedAt: Date.now(),
          saved: { ...(journalId ? { journalId } : {}), ...(journalProblem ? { journalProblem } : {}) },
        },
      });
      return true;
    }
    const isConflict = envelope.error.code === 'ConditionalCheckFailedException';
    const current = (envelope.error.details?.current as Item | null | undefined) ?? null;
    // A create's condition is only "no item has this key": nobody changed anything, the key is taken.
    const isKeyTaken = isConflict && open.seen === null;
    get().patch(key, {
      open: {
        ...open,
        isSaving: false,
        error: envelope.error,
        ...(isKeyTaken
          ? { keyTaken: { current } }
          : isConflict
            ? { conflict: { current, mine: open.draft } }
            : {}),
      },
    });
    return false;
  },
  stage({ connectionId, table, keys }, change) {
    const key = editorKey(connectionId, table);
    const state = get().tables[key] ?? empty;
    const anchor = change.seen ?? change.desired;
    // One entry per item: staging the same item again replaces the earlier edit (keeping what was first seen).
    const existing = state.staged.find((s) => sameItem(s.seen ?? s.desired, anchor, keys));
    const entry: StagedEntry = existing
      ? { ...existing, desired: change.desired, result: undefined }
      : { id: `change-${++counter}`, ...change };
    const staged = existing
      ? state.staged.map((s) => (s.id === existing.id ? entry : s))
      : [...state.staged, entry];
    get().patch(key, { staged, token: undefined, commitError: undefined, lastCommit: undefined });
  },
  unstage(key, id) {
    const state = get().tables[key] ?? empty;
    get().patch(key, { staged: state.staged.filter((s) => s.id !== id), token: undefined });
  },
  async commit({ connectionId, table }, confirmTable) {
    const key = editorKey(connectionId, table);
    const state = get().tables[key] ?? empty;
    const pending = state.staged.filter((s) => s.result?.status !== 'written');
    if (pending.length === 0) return;
    const token = state.token ?? newRequestToken();
    get().patch(key, { isCommitting: true, token, commitError: undefined });
    const envelope = await call('items:commit', {
      connectionId,
      table,
      token,
      changes: pending.map(({ id, seen, desired }) => ({ id, seen, desired })),
      ...(confirmTable ? { confirmTable } : {}),
    });
    if (!envelope.ok) {
      // The token stays: retrying the same list cannot apply any batch twice.
      get().patch(key, { isCommitting: false, commitError: envelope.error });
      return;
    }
    const results = new Map(envelope.value.results.map((r) => [r.id, r]));
    const staged = state.staged
      .map((s) => ({ ...s, result: results.get(s.id) ?? s.result }))
      .filter((s) => s.result?.status !== 'written');
    const written = pending.length - staged.length;
    get().patch(key, {
      isCommitting: false,
      staged,
      token: undefined,
      lastCommit: {
        written,
        remaining: staged.length,
        journalId: envelope.value.journalId,
        journalProblem: envelope.value.journalProblem,
      },
    });
  },
  dismissCommit(key) {
    get().patch(key, { lastCommit: undefined });
  },
  resolve(key, choice) {
    const open = get().tables[key]?.open;
    if (!open?.conflict) return;
    const { current, mine } = open.conflict;
    const base = current ?? {};
    let draft: Item = base;
    if (choice === 'overwrite') draft = mine;
    else if (choice === 'apply-mine') draft = rebaseChanges(base, diffItems(open.seen ?? {}, mine));
    get().patch(key, {
      open: { seen: current, draft, error: undefined, revision: (open.revision ?? 0) + 1 },
    });
  },
  written(connectionId, table, source, items) {
    const key = editorKey(connectionId, table);
    const open = get().tables[key]?.open;
    // A load or a save in flight brings its own answer, which is newer than or equal to this.
    if (!open?.seen || open.isLoading || open.isSaving) return;
    const seen = open.seen;
    const write = items.find((w) => isKeyOf(w.key, seen));
    if (!write) return;
    const now = write.item;
    const by: WrittenBy = source ? { source } : {};
    const revision = (open.revision ?? 0) + 1;
    if (open.conflict) {
      get().patch(key, { open: { ...open, conflict: { ...open.conflict, current: now, writtenBy: by } } });
      return;
    }
    if (now && itemsEqual(now, seen)) return;
    const hasEdits = !itemsEqual(open.draft, seen);
    if (now && (!hasEdits || itemsEqual(now, open.draft))) {
      get().patch(key, { open: { seen: now, draft: now, followed: by, revision } });
      return;
    }
    if (!now && !hasEdits) {
      get().patch(key, {
        open: { seen: null, draft: open.draft, deletedItem: seen, error: deletedError(by), revision },
      });
      return;
    }
    get().patch(key, { open: { ...open, conflict: { current: now, mine: open.draft, writtenBy: by } } });
  },
}));

export function useEditorTable(connectionId: string, table: string): EditorTableState {
  return useEditorStore((state) => state.tables[editorKey(connectionId, table)] ?? empty);
}
