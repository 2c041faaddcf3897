import type { SQLNamespace } from '@codemirror/lang-sql';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SqlCatalogOutput } from '../../../../shared/ipc/sql';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { ariaKeys, formatShortcut, matches } from '../../keyboard/shortcuts';
import type { WorkspaceToolProps } from '../../workspace/tools';
import { useAssistStore, useAssistTab } from '../assist-store';
import { type StatementRange, statementAt } from '../statement-at';
import { activeDocument } from '../statement-tabs';
import { useSqlConnection, useSqlDocuments, useSqlRun, useSqlStore } from '../store';
import { AssistBar } from './assist-bar';
import { AssistProposal } from './assist-proposal';
import { AthenaChoice } from './athena-choice';
import { PlanView } from './plan-view';
import { RegionChoice } from './region-choice';
import { ResultsPanel } from './results-panel';
import { OperationProgress } from '../../operations/components/operation-progress';
import { SaveQueryForm } from './save-query-form';
import { limitText, ScanLimitForm } from './scan-limit-form';
import { SidePanel } from './side-panel';
import { type EditorError, SqlEditor } from './sql-editor';
import { StaleNote } from './stale-note';
import { StatementTabBar } from './statement-tab-bar';
import '../sql.css';

function schemaOf(catalog: SqlCatalogOutput | undefined): SQLNamespace {
  // Table names are data (`__proto__` is a legal table name): no prototype to write through.
  const namespace: Record<string, readonly string[]> = Object.create(null) as Record<
    string,
    readonly string[]
  >;
  for (const table of catalog?.tables ?? []) namespace[table.name] = catalog?.attributes[table.name] ?? [];
  for (const name of catalog?.moreTables ?? []) namespace[name] = [];
  for (const view of catalog?.views ?? [])
    namespace[view.name] =
      catalog?.attributes[`${view.table}.${view.name}`] ?? catalog?.attributes[view.name] ?? [];
  return namespace;
}

/**
 * The SQL workbench of one connection (in one of its regions): tables and views on the left, the editor, its plan or
 * progress, and the results (a virtualized grid, and a chart for grouped results).
 */
export function SqlWorkbench({ connection }: WorkspaceToolProps) {
  // Another region's tables are read through `<id>@<region>`; everything below is keyed by it.
  const id = useSqlStore((state) => state.workbenchIds[connection.id]) ?? connection.id;
  const hint = `${formatShortcut('run')} runs · ${formatShortcut('plan')} plans · SELECT only`;
  const documents = useSqlDocuments(id);
  const statementTab = activeDocument(documents);
  const tabId = statementTab.id;
  const last = useSqlRun(tabId);
  const shared = useSqlConnection(id);
  const runs = useSqlStore((state) => state.runs);
  const busy = useMemo(
    () => new Set(documents.tabs.filter((t) => runs[t.id]?.requestId).map((t) => t.id)),
    [documents.tabs, runs],
  );
  const actions = useSqlStore.getState();
  const assist = useAssistTab(id);
  const assistActions = useAssistStore.getState();
  const [isSaving, setIsSaving] = useState(false);
  const [isEditingLimit, setIsEditingLimit] = useState(false);
  const cursor = useRef<StatementRange>({ text: '', from: 0, to: 0 });

  useEffect(() => {
    void actions.loadCatalog(id);
    void actions.loadFiles(id);
    void actions.loadAthenaSettings(id);
    // Loaded once per connection; the actions are stable store functions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  useEffect(() => {
    // A tab switch leaves the previous tab's cursor behind; Run then reads the new tab's text.
    cursor.current = { text: '', from: 0, to: 0 };
  }, [tabId]);

  const schema = useMemo(() => schemaOf(shared.catalog), [shared.catalog]);
  const editorError: EditorError | undefined = useMemo(() => {
    const details = last.error?.error.details as
      { offset?: number; length?: number; reason?: string } | undefined;
    if (!last.error || details?.offset === undefined) return undefined;
    const from = last.error.base + details.offset;
    return { from, to: from + (details.length ?? 1), message: details.reason ?? last.error.error.message };
  }, [last.error]);

  const current = useCallback((): StatementRange => {
    const range = cursor.current;
    return range.text ? range : statementAt(statementTab.text, statementTab.text.length);
  }, [statementTab.text]);
  const run = (statement: StatementRange) => {
    if (statement.text.trim() && !last.requestId) void actions.run(id, tabId, statement);
  };
  const plan = (statement: StatementRange) => {
    if (statement.text.trim()) void actions.plan(id, tabId, statement);
  };
  const shortcut = useRef({ run, plan, current, tabId });
  useEffect(() => {
    shortcut.current = { run, plan, current, tabId };
  });
  useEffect(() => {
    // Run, plan and the statement tabs' keys while the workbench is open, wherever focus is; the
    // editor handles run and plan first and marks the event, so they never run twice.
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      const { run: runNow, plan: planNow, current: statement, tabId: active } = shortcut.current;
      if (matches('new-sql-tab', event)) {
        event.preventDefault();
        useSqlStore.getState().addTab(id);
      } else if (matches('close-sql-tab', event)) {
        event.preventDefault();
        useSqlStore.getState().closeTab(id, active);
      } else if (matches('plan', event)) {
        event.preventDefault();
        planNow(statement());
      } else if (matches('run', event)) {
        event.preventDefault();
        runNow(statement());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);

  return (
    <div className="sql-workbench">
      <h1 className="visually-hidden">SQL workbench</h1>
      <SidePanel
        connectionId={id}
        region={
          <RegionChoice
            connection={connection}
            workbenchId={id}
            onChange={(next) => actions.chooseWorkbench(connection.id, next)}
          />
        }
        catalog={shared.catalog}
        history={shared.history}
        saved={shared.saved}
        onInsert={(text) =>
          actions.setText(id, `${statementTab.text}${/\s$/.test(statementTab.text) ? '' : ' '}${text}`)
        }
        onLoad={(sql) => actions.setText(id, sql)}
        onDelete={(name) => void actions.deleteQuery(id, name)}
        onRefreshCatalog={() => void actions.loadCatalog(id, true)}
      />
      <div className="sql-main">
        <StatementTabBar
          documents={documents}
          busy={busy}
          panelId={`sql-doc-panel-${id}`}
          onActivate={(tab) => actions.activateTab(id, tab)}
          onAdd={() => actions.addTab(id)}
          onClose={(tab) => actions.closeTab(id, tab)}
          onRename={(tab, title) => actions.renameTab(id, tab, title)}
        />
        <div
          className={last.choice ? 'sql-doc-panel is-choosing' : 'sql-doc-panel'}
          role="tabpanel"
          id={`sql-doc-panel-${id}`}
          aria-labelledby={`sql-doc-tab-${tabId}`}
        >
          <div className="sql-toolbar" role="toolbar" aria-label="SQL">
            <Button
              variant="primary"
              onClick={() => run(current())}
              isBusy={last.requestId !== undefined}
              title={`Run the statement under the cursor (${formatShortcut('run')})`}
              aria-keyshortcuts={ariaKeys('run')}
            >
              Run
            </Button>
            <Button
              onClick={() => plan(current())}
              isBusy={last.isPlanning}
              title={`Show the DynamoDB calls first (${formatShortcut('plan')})`}
              aria-keyshortcuts={ariaKeys('plan')}
            >
              Plan
            </Button>
            <label className="sql-check" title="Read DynamoDB again instead of using cached data">
              <input
                type="checkbox"
                checked={shared.refresh}
                onChange={(e) => actions.setRefresh(id, e.target.checked)}
              />{' '}
              Refresh data
            </label>
            <Button variant="ghost" onClick={() => setIsSaving((v) => !v)}>
              Save…
            </Button>
            {shared.athena ? (
              <Button
                variant="ghost"
                aria-expanded={isEditingLimit}
                title="Past this a statement that would scan a table whole asks before it runs"
                onClick={() => setIsEditingLimit((v) => !v)}
              >
                Scan limit: {limitText(shared.athena.limits)}
              </Button>
            ) : null}
            {/* Cut with an ellipsis when the toolbar is short (1024 px): whole in its tooltip. */}
            <span className="sql-hint" title={hint}>
              {hint}
            </span>
          </div>
          <AssistBar connectionId={id} editorText={statementTab.text} />
          {isSaving ? (
            <SaveQueryForm
              onCancel={() => setIsSaving(false)}
              onSave={async (name) => {
                const error = await actions.saveQuery(id, name, current().text);
                if (!error) setIsSaving(false);
                return error;
              }}
            />
          ) : null}
          {isEditingLimit && shared.athena ? (
            <ScanLimitForm
              settings={shared.athena}
              onSave={(limits) => actions.saveScanLimits(id, limits)}
              onClose={() => setIsEditingLimit(false)}
            />
          ) : null}
          <div className="sql-editor-wrap">
            <SqlEditor
              key={tabId}
              value={statementTab.text}
              schema={schema}
              error={editorError}
              onChange={(text) => actions.setText(id, text)}
              onRun={run}
              onPlan={plan}
              onCursor={(range) => (cursor.current = range)}
              isRunning={last.requestId !== undefined}
            />
          </div>
          {assist.result ? (
            <AssistProposal
              result={assist.result}
              current={assist.baseline ?? statementTab.text}
              onDiscard={() => assistActions.discard(id)}
              onUse={(statement, andRun) => {
                actions.setText(id, statement);
                assistActions.discard(id);
                if (andRun) run({ text: statement, from: 0, to: statement.length });
              }}
            />
          ) : null}
          {shared.catalogError ? (
            <ErrorMessage
              error={shared.catalogError}
              connectionId={id}
              compact
              onRetry={() => void actions.loadCatalog(id, true)}
            />
          ) : null}
          {last.requestId ? (
            <OperationProgress
              requestId={last.requestId}
              label="Running"
              starting="Starting"
              isCompact
              onCancel={() => void actions.cancel(tabId)}
            />
          ) : null}
          {last.error ? (
            <ErrorMessage
              error={last.error.error}
              connectionId={id}
              compact
              action={
                <Button
                  size="sm"
                  isBusy={assist.requestId !== undefined && assist.task === 'fix'}
                  title="The model proposes a corrected statement; nothing runs until you choose"
                  onClick={() =>
                    void assistActions.start(id, {
                      task: 'fix',
                      statement: current().text,
                      error: last.error?.error.message ?? '',
                    })
                  }
                >
                  Fix with AI
                </Button>
              }
            />
          ) : null}
          {last.cancelled ? <p className="sql-faint sql-note">Cancelled. Nothing partial was kept.</p> : null}
          <div className="sql-results">
            {last.choice ? (
              <AthenaChoice
                key={last.choice.statement.text}
                plan={last.choice.plan}
                saved={shared.athena?.athena}
                isBusy={last.requestId !== undefined}
                freshExport={last.choice.freshExport ?? false}
                isReplanning={last.choice.isReplanning ?? false}
                {...(last.choice.replanError ? { replanError: last.choice.replanError } : {})}
                onFreshExport={(fresh) => void actions.setFreshExport(id, tabId, fresh)}
                onLocal={() => {
                  const chosen = last.choice;
                  if (chosen) void actions.runLocal(id, tabId, chosen.statement, true);
                }}
                onAthena={(settings, exportChoice) => {
                  const chosen = last.choice;
                  if (chosen) void actions.runAthena(id, tabId, chosen.statement, settings, exportChoice);
                }}
                onDismiss={() => actions.updateRun(tabId, { choice: undefined })}
              />
            ) : null}
            {last.choice ? null : (
              <div className="sql-tabs" role="tablist">
                <button
                  type="button"
                  role="tab"
                  aria-selected={last.view === 'results'}
                  className={last.view === 'results' ? 'is-active' : ''}
                  onClick={() => actions.updateRun(tabId, { view: 'results' })}
                >
                  Results
                </button>
                <button
                  type="button"
                  role="tab"
                  aria-selected={last.view === 'plan'}
                  className={last.view === 'plan' ? 'is-active' : ''}
                  onClick={() => actions.updateRun(tabId, { view: 'plan' })}
                >
                  Plan
                </button>
              </div>
            )}
            {last.choice ? null : last.view === 'plan' ? (
              last.plan ? (
                <>
                  <div className="sql-plan-actions">
                    <Button
                      size="sm"
                      isBusy={assist.requestId !== undefined && assist.task === 'explain'}
                      onClick={() =>
                        void assistActions.start(id, { task: 'explain', statement: current().text })
                      }
                    >
                      Explain in words
                    </Button>
                  </div>
                  {last.isPlanStale ? (
                    <StaleNote>
                      This plan is of an earlier statement
                      {last.error ? ': the last statement failed (see the error above)' : ''}. Press Plan to
                      see the current one.
                    </StaleNote>
                  ) : null}
                  <div className={last.isPlanStale ? 'is-stale' : undefined}>
                    <PlanView plan={last.plan} />
                  </div>
                </>
              ) : (
                <p className="sql-faint sql-note">
                  Press Plan to see the DynamoDB calls a statement will make before running it.
                </p>
              )
            ) : last.summary ? (
              <ResultsPanel connectionId={id} tabId={tabId} summary={last.summary} />
            ) : (
              <p className="sql-faint sql-note">
                Results appear here. Tables and entity views are on the left; click one to add it.
              </p>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
