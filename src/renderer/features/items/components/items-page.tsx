import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import type { CollectionHeader } from '../../../../shared/ipc/query';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { noRowsSentence } from '../no-rows';
import { ErrorMessage } from '../../../ui/error-message';
import { SkipLink } from '../../../ui/skip-link';
import { formatShortcut } from '../../keyboard/shortcuts';
import { useSignInStore } from '../../sign-in/store';
import { ItemEditor } from '../../editor/components/item-editor';
import { StagedPanel } from '../../editor/components/staged-panel';
import { useEditorStore, useEditorTable } from '../../editor/store';
import {
  initialBuilder,
  toReadSpec,
  toReadSpecBeforeDescription,
  type BuilderErrors,
  type BuilderState,
} from '../../query/builder-state';
import { QueryBuilder } from '../../query/components/query-builder';
import { rememberBuilder, rememberedBuilder } from '../../query/builder-memory';
import { readErrorAtField } from '../../query/raw-fields';
import type { TableViewProps } from '../../table/tabs';
import {
  collectionPositions,
  MAX_SELECTED_READ,
  readPositions,
  readWholeView,
  type ViewRef,
  isRowSelected,
} from '../selection';
import { useSelectionStore, useTableSelection } from '../selection-store';
import { itemsKey, useItemsStore, useItemsTable } from '../store';
import { CopyDialog } from '../../copy/copy-dialog';
import { BulkDialog } from './bulk-dialog';
import { ExportDialog } from './export-dialog';
import { GridControls } from './grid-controls';
import { ImportDialog } from './import-dialog';
import { JournalDialog } from '../../journal/components/journal-dialog';
import { withAttribute } from './inline-edit';
import { ItemGrid, rowKeyText } from './item-grid';
import { ProgressLine } from './progress-line';
import { ValuePopover } from '../../../ui/value-popover';
import '../items.css';

/** Tables whose Items tab already read its first page by itself in this window. */
const autoRead = new Set<string>();
/** The last sign-in (its count in the sign-in store) each table's Items tab has answered. */
const renewalSeen = new Map<string, number>();

/** The Items tab of a table: build a read, stream it into the grid, open, edit, stage, commit. */
/** The grid's one tab stop (its focused cell), where "Skip to the grid" lands. */
const gridTabStop = (): HTMLElement | null =>
  document.querySelector<HTMLElement>('.item-grid-scroller [tabindex="0"]');

export function ItemsPage({ connection, table, description }: TableViewProps) {
  const summary = description?.summary;
  const key = itemsKey(connection.id, table);
  const state = useItemsTable(connection.id, table);
  const editor = useEditorTable(connection.id, table);
  const { run, cancel, patch, applyView, setCollapsed } = useItemsStore.getState();
  const openItem = useEditorStore((s) => s.openItem);
  const openNew = useEditorStore((s) => s.openNew);
  const guard = useEditorStore((s) => s.guard);
  const [builder, setBuilderState] = useState<BuilderState>(() => rememberedBuilder(key) ?? initialBuilder);
  const [errors, setErrors] = useState<BuilderErrors>({});
  const [columns, setColumns] = useState<string[]>([]);
  const selection = useTableSelection(connection.id, table);
  const selected = selection.picked;
  const pick = useSelectionStore((s) => s.set);
  const clearSelection = useSelectionStore((s) => s.clear);
  const retainSelection = useSelectionStore((s) => s.retain);
  const [anchor, setAnchor] = useState<number>();
  const [expanded, setExpanded] = useState<{ name: string; value: AttributeValue }>();
  const [dialog, setDialog] = useState<'bulk' | 'export' | 'import' | 'journal' | 'copy'>();
  const [selectedItems, setSelectedItems] = useState<Item[]>([]);
  const [exportPositions, setExportPositions] = useState<number[]>([]);
  const setBuilder = (next: BuilderState): void => {
    rememberBuilder(key, next);
    setBuilderState(next);
    // Marked fields follow what is typed: a fixed field loses its sentence at once.
    if (Object.keys(errors).length > 0 && summary) {
      const built = toReadSpec(next, summary.keys, summary.indexes, columns);
      setErrors('errors' in built ? built.errors : {});
    }
  };
  const onColumns = useCallback((next: string[]) => setColumns(next), []);
  const keys = summary?.keys;
  const target = useMemo(
    () => (keys ? { connectionId: connection.id, table, keys } : undefined),
    [connection.id, table, keys],
  );

  const onOpen = useCallback(
    (item: Item) => {
      // Typing in the open editor is never dropped for another item without asking.
      if (target) guard(() => void openItem(target, item), target);
    },
    [openItem, guard, target],
  );
  const onExpand = useCallback((name: string, value: AttributeValue) => setExpanded({ name, value }), []);
  const staged = useMemo(
    () =>
      keys
        ? new Map(
            editor.staged
              .filter((entry) => entry.result?.status !== 'written')
              .map((entry) => [rowKeyText(entry.seen ?? entry.desired ?? {}, keys), entry.desired]),
          )
        : undefined,
    [editor.staged, keys],
  );
  const stage = useEditorStore((s) => s.stage);
  // A cell edited in the grid is staged like an edit in the item editor: the row as read is what
  // the write is conditioned on (the store keeps what was first seen when the item is staged already).
  const onEditCell = useCallback(
    (item: Item, column: string, value: AttributeValue) => {
      if (target) stage(target, { seen: item, desired: withAttribute(item, column, value) });
    },
    [stage, target],
  );
  // Opening a table shows its first page at once: the read last used for it in this workspace
  // (the builder as it was left), or a bounded Scan of the builder's default 100 items. A Scan of
  // the table itself starts at once, beside the table's description (main learns the keys it
  // needs by itself); the grid takes the rows when the description has given it the keys.
  const indexes = summary?.indexes;
  const isIdle = state.status === 'idle' && !state.resultSetId;
  useEffect(() => {
    if (!isIdle || autoRead.has(key)) return;
    const remembered = rememberedBuilder(key) ?? initialBuilder;
    let read;
    if (keys && indexes) {
      const last = toReadSpec(remembered, keys, indexes, []);
      read = 'errors' in last ? toReadSpec(initialBuilder, keys, indexes, []) : last;
    } else read = toReadSpecBeforeDescription(remembered);
    if (!read || 'errors' in read) return;
    autoRead.add(key);
    void run({ connectionId: connection.id, table, keys, read });
  }, [keys, indexes, isIdle, key, run, connection.id, table]);
  // Signing in again repairs a read the expired session refused: read it again, as the sign-in
  // dialog promises ("your open tabs reload with the new session"). The table's description
  // reloads with the new session too, so this waits for its keys, and for a read still running
  // with the old session to end; the dialog may be closed by then.
  const renewal = useSignInStore((s) => s.renewals[connection.id]);
  const hasFailed = state.error !== undefined;
  const isReading = state.status === 'running';
  const lastRead = state.lastRead;
  useEffect(() => {
    if (renewal === undefined || renewalSeen.get(key) === renewal || !keys || isReading) return;
    renewalSeen.set(key, renewal);
    if (!hasFailed || !lastRead) return;
    void run({ connectionId: connection.id, table, keys, read: lastRead });
  }, [renewal, key, hasFailed, isReading, keys, lastRead, run, connection.id, table]);
  const onToggleCollection = useCallback(
    (header: CollectionHeader) =>
      void setCollapsed(connection.id, table, {
        isCollapsed: !header.isCollapsed,
        ...(header.partitionKey ? { partitionKey: header.partitionKey } : {}),
      }),
    [setCollapsed, connection.id, table],
  );
  const view: ViewRef | undefined = useMemo(
    () =>
      state.resultSetId
        ? { resultSetId: state.resultSetId, viewId: state.viewId, isGrouped: state.isGrouped }
        : undefined,
    [state.resultSetId, state.viewId, state.isGrouped],
  );
  const onSelectCollection = useCallback(
    (header: CollectionHeader, isSelected: boolean) => {
      if (!view || !keys) return;
      void readPositions(view, collectionPositions(header)).then(
        (rows) => pick(key, rows, keys, isSelected),
        () => undefined,
      );
    },
    [view, keys, pick, key],
  );
  // Whenever the rows in view may have changed (a write, a re-read, a sort or filter), the
  // selection keeps only the items the view still holds, so the count says what a bulk action
  // would act on; the row positions never carry the selection over to other items.
  const hasSelection = selected.size > 0;
  const viewRows = state.isGrouped ? state.viewItems : (state.viewTotal ?? state.fetched);
  const isSettled = state.status !== 'running';
  useEffect(() => {
    if (!hasSelection || !view || !keys || !isSettled || viewRows === undefined) return;
    let isCurrent = true;
    void readWholeView(view, viewRows).then((rows) => {
      if (isCurrent && rows) retainSelection(key, rows, keys);
    });
    return () => {
      isCurrent = false;
    };
  }, [hasSelection, view, keys, isSettled, viewRows, state.version, state.layout, retainSelection, key]);

  if (!summary || !keys || !target) return <EmptyState title="Loading the table…" />;
  const total = state.viewTotal ?? state.fetched;
  const noRows = noRowsSentence(state, table);
  // A read DynamoDB refused for something typed in the builder is said at that field.
  const readErrors = readErrorAtField(state.error, builder.isRaw);

  const start = (isMore = false): void => {
    const built =
      isMore && state.lastRead ? state.lastRead : toReadSpec(builder, keys, summary.indexes, columns);
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    if (!isMore) clearSelection(key);
    void run({ connectionId: connection.id, table, keys, read: built, isMore });
  };
  const toggleRow = (row: Item, index: number, isRange: boolean): void => {
    setAnchor(index);
    if (isRange && anchor !== undefined && view) {
      const from = Math.min(anchor, index);
      const positions = Array.from({ length: Math.abs(anchor - index) + 1 }, (_, i) => from + i);
      void readPositions(view, positions).then(
        (rows) => pick(key, rows, keys, true),
        () => undefined,
      );
    } else pick(key, [row], keys, !isRowSelected(selected, row, keys));
  };
  // The items as last seen (a write DynoTable made, or the last check of the view, updated them).
  const loadSelected = (): Item[] => [...selected.values()].slice(0, MAX_SELECTED_READ).map((p) => p.item);
  // An export of the raw result set names rows by position: find the picked items' places now.
  const exportRows = async (): Promise<number[]> => {
    if (!view || state.viewId || selected.size === 0) return [];
    const rows = (await readWholeView(view, state.fetched)) ?? [];
    return rows.flatMap((row, position) => (isRowSelected(selected, row, keys) ? [position] : []));
  };
  const sortBy = (column: string): void => {
    const current = state.sort.find((s) => s.column === column);
    patch(key, {
      sort: current
        ? current.descending
          ? []
          : [{ column, descending: true }]
        : [{ column, descending: false }],
    });
    void applyView(connection.id, table, keys);
  };

  return (
    <div className={`items-page${editor.open ? ' has-editor' : ''}`}>
      <div className="items-main">
        {state.resultSetId ? <SkipLink target={gridTabStop}>Skip to the grid</SkipLink> : null}
        <QueryBuilder
          connection={connection}
          table={table}
          state={builder}
          keys={keys}
          indexes={summary.indexes}
          names={columns}
          errors={readErrors ? { ...readErrors, ...errors } : errors}
          runProblem={Object.values(errors).find(Boolean)}
          isRunning={state.status === 'running'}
          onChange={setBuilder}
          onRun={() => start()}
          onCancel={() => void cancel(connection.id, table)}
        />
        {/* Two groups: what was read on the left, the actions on the right. When the line is
            short (a narrow window, the editor open) the actions wrap as one group, right-aligned,
            instead of leaving one button alone on a line (items.css). */}
        <div className="items-toolbar">
          <div className="items-toolbar-status">
            <ProgressLine state={state} />
            {state.cursor && state.status !== 'running' ? (
              <Button size="sm" onClick={() => start(true)}>
                Load more
              </Button>
            ) : null}
            {selected.size > 0 ? <span className="muted">{selected.size} selected</span> : null}
            {selection.left > 0 ? (
              <span className="muted" role="status">
                {selection.left} selected item{selection.left === 1 ? '' : 's'} left the view and{' '}
                {selection.left === 1 ? 'is' : 'are'} no longer selected.
              </span>
            ) : null}
          </div>
          <div className="items-toolbar-actions">
            <div className="items-toolbar-group">
              <Button
                size="sm"
                onClick={() => guard(() => openNew(target), target)}
                disabled={connection.readOnly}
              >
                New item
              </Button>
              <Button
                size="sm"
                disabled={!state.resultSetId || connection.readOnly}
                onClick={() => {
                  setSelectedItems(loadSelected());
                  setDialog('bulk');
                }}
              >
                Delete / update…
              </Button>
            </div>
            <div className="items-toolbar-group">
              <Button
                size="sm"
                onClick={() =>
                  void exportRows().then((rows) => {
                    setExportPositions(rows);
                    setDialog('export');
                  })
                }
              >
                Export…
              </Button>
              <Button size="sm" disabled={connection.readOnly} onClick={() => setDialog('import')}>
                Import…
              </Button>
              <Button size="sm" onClick={() => setDialog('copy')}>
                Copy to…
              </Button>
              <Button size="sm" onClick={() => setDialog('journal')}>
                Undo history…
              </Button>
            </div>
          </div>
        </div>
        {state.isStale ? (
          <p className="items-stale" role="status">
            Your change may have moved items into or out of this read in a way DynoTable cannot tell here.
            Refresh ({formatShortcut('refresh')}) reads it again.
          </p>
        ) : null}
        {state.error && !readErrors ? (
          <ErrorMessage compact error={state.error} connectionId={connection.id} onRetry={() => start()} />
        ) : null}
        {state.resultSetId ? (
          <>
            <GridControls connectionId={connection.id} table={table} keys={keys} columns={columns} />
            {noRows ? (
              <p className="items-no-rows" role="status">
                {noRows}
              </p>
            ) : null}
            <ItemGrid
              resultSetId={state.resultSetId}
              viewId={state.viewId}
              version={state.version}
              total={total}
              keys={keys}
              hiddenColumns={state.hiddenColumns}
              sort={state.sort}
              isGrouped={state.isGrouped}
              selected={selected}
              layout={state.layout}
              staged={staged}
              canEdit={!connection.readOnly}
              onEditCell={onEditCell}
              onSort={sortBy}
              onToggleRow={toggleRow}
              onOpen={onOpen}
              onColumns={onColumns}
              onExpand={onExpand}
              onToggleCollection={onToggleCollection}
              onSelectCollection={onSelectCollection}
            />
          </>
        ) : (
          <EmptyState title="No items yet">
            Choose Scan to read {table} page by page, or Query one partition. Results stream in as they
            arrive.
          </EmptyState>
        )}
        <StagedPanel connection={connection} table={table} keys={keys} onCommitted={() => undefined} />
      </div>
      {editor.open ? (
        <ItemEditor
          connection={connection}
          table={table}
          keys={keys}
          indexes={summary.indexes}
          columns={columns}
          index={state.lastRead?.spec.index}
          onSaved={() => undefined}
        />
      ) : null}
      {expanded ? (
        <ValuePopover name={expanded.name} value={expanded.value} onClose={() => setExpanded(undefined)} />
      ) : null}
      {dialog === 'bulk' && state.resultSetId ? (
        <BulkDialog
          connection={connection}
          table={table}
          resultSetId={state.resultSetId}
          selected={selectedItems}
          names={columns}
          keys={keys}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
      {dialog === 'export' ? (
        <ExportDialog
          connectionId={connection.id}
          table={table}
          summary={summary}
          index={builder.index || undefined}
          resultSetId={state.resultSetId}
          total={state.fetched}
          rows={exportPositions}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
      {dialog === 'import' ? (
        <ImportDialog connection={connection} table={table} onClose={() => setDialog(undefined)} />
      ) : null}
      {dialog === 'copy' ? (
        <CopyDialog
          connection={connection}
          table={table}
          resultSet={
            state.resultSetId
              ? { id: state.resultSetId, total: state.fetched, spec: state.lastRead?.spec }
              : undefined
          }
          onClose={() => setDialog(undefined)}
        />
      ) : null}
      {dialog === 'journal' ? (
        <JournalDialog connection={connection} table={table} onClose={() => setDialog(undefined)} />
      ) : null}
    </div>
  );
}
