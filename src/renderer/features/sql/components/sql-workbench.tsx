import type { SQLNamespace } from '@codemirror/lang-sql';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SqlCatalogOutput } from '../../../../shared/ipc/sql';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import type { WorkspaceToolProps } from '../../workspace/tools';
import { useAssistStore, useAssistTab } from '../assist-store';
import { type StatementRange, statementAt } from '../statement-at';
import { useSqlStore, useSqlTab } from '../store';
import { AssistBar } from './assist-bar';
import { AssistProposal } from './assist-proposal';
import { PlanView } from './plan-view';
import { ResultsPanel } from './results-panel';
import { RunProgress } from './run-progress';
import { SaveQueryForm } from './save-query-form';
import { SidePanel } from './side-panel';
import { type EditorError, SqlEditor } from './sql-editor';
import '../sql.css';

function schemaOf(catalog: SqlCatalogOutput | undefined): SQLNamespace {
  const namespace: Record<string, readonly string[]> = {};
  for (const table of catalog?.tables ?? []) namespace[table.name] = catalog?.attributes[table.name] ?? [];
  for (const view of catalog?.views ?? [])
    namespace[view.name] =
      catalog?.attributes[`${view.table}.${view.name}`] ?? catalog?.attributes[view.name] ?? [];
  return namespace;
}

/**
 * The SQL workbench of one connection: tables and views on the left, the editor, its plan or
 * progress, and the results (a virtualized grid, and a chart for grouped results).
 */
export function SqlWorkbench({ connection }: WorkspaceToolProps) {
  const id = connection.id;
  const tab = useSqlTab(id);
  const actions = useSqlStore.getState();
  const assist = useAssistTab(id);
  const assistActions = useAssistStore.getState();
  const [isSaving, setIsSaving] = useState(false);
  const cursor = useRef<StatementRange>({ text: '', from: 0, to: 0 });

  useEffect(() => {
    void actions.loadCatalog(id);
    void actions.loadFiles(id);
    // Loaded once per connection; the actions are stable store functions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const schema = useMemo(() => schemaOf(tab.catalog), [tab.catalog]);
  const editorError: EditorError | undefined = useMemo(() => {
    const details = tab.error?.error.details as
      { offset?: number; length?: number; reason?: string } | undefined;
    if (!tab.error || details?.offset === undefined) return undefined;
    const from = tab.error.base + details.offset;
    return { from, to: from + (details.length ?? 1), message: details.reason ?? tab.error.error.message };
  }, [tab.error]);

  const current = useCallback((): StatementRange => {
    const range = cursor.current;
    return range.text ? range : statementAt(tab.text, tab.text.length);
  }, [tab.text]);
  const run = (statement: StatementRange) => {
    if (statement.text.trim() && !tab.requestId) void actions.run(id, statement);
  };
  const plan = (statement: StatementRange) => {
    if (statement.text.trim()) void actions.plan(id, statement);
  };
  const shortcut = useRef({ run, plan, current });
  useEffect(() => {
    shortcut.current = { run, plan, current };
  });
  useEffect(() => {
    // Ctrl/Cmd+Enter while the workbench is open, wherever focus is (a clicked button, nothing);
    // the editor handles it first and marks the event, so it never runs twice.
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
      event.preventDefault();
      const { run: runNow, plan: planNow, current: statement } = shortcut.current;
      if (event.shiftKey) planNow(statement());
      else runNow(statement());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="sql-workbench">
      <SidePanel
        connectionId={id}
        catalog={tab.catalog}
        history={tab.history}
        saved={tab.saved}
        onInsert={(text) => actions.setText(id, `${tab.text}${/\s$/.test(tab.text) ? '' : ' '}${text}`)}
        onLoad={(sql) => actions.setText(id, sql)}
        onDelete={(name) => void actions.deleteQuery(id, name)}
        onRefreshCatalog={() => void actions.loadCatalog(id, true)}
      />
      <div className="sql-main">
        <div className="sql-toolbar" role="toolbar" aria-label="SQL">
          <Button
            variant="primary"
            onClick={() => run(current())}
            isBusy={tab.requestId !== undefined}
            title="Run the statement under the cursor (Ctrl/Cmd+Enter)"
          >
            Run
          </Button>
          <Button
            onClick={() => plan(current())}
            isBusy={tab.isPlanning}
            title="Show the DynamoDB calls first (Shift+Ctrl/Cmd+Enter)"
          >
            Plan
          </Button>
          <label className="sql-check" title="Read DynamoDB again instead of using cached data">
            <input
              type="checkbox"
              checked={tab.refresh}
              onChange={(e) => actions.update(id, { refresh: e.target.checked })}
            />{' '}
            Refresh data
          </label>
          <Button variant="ghost" onClick={() => setIsSaving((v) => !v)}>
            Save…
          </Button>
          <span className="sql-hint">Ctrl/Cmd+Enter runs · Shift adds the plan · SELECT only</span>
        </div>
        <AssistBar connectionId={id} editorText={tab.text} />
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
        <div className="sql-editor-wrap">
          <SqlEditor
            value={tab.text}
            schema={schema}
            error={editorError}
            onChange={(text) => actions.setText(id, text)}
            onRun={run}
            onPlan={plan}
            onCursor={(range) => (cursor.current = range)}
          />
        </div>
        {assist.result ? (
          <AssistProposal
            result={assist.result}
            current={assist.baseline ?? tab.text}
            onDiscard={() => assistActions.discard(id)}
            onUse={(statement, andRun) => {
              actions.setText(id, statement);
              assistActions.discard(id);
              if (andRun) run({ text: statement, from: 0, to: statement.length });
            }}
          />
        ) : null}
        {tab.catalogError ? (
          <ErrorMessage
            error={tab.catalogError}
            connectionId={id}
            compact
            onRetry={() => void actions.loadCatalog(id, true)}
          />
        ) : null}
        {tab.requestId ? (
          <RunProgress requestId={tab.requestId} onCancel={() => void actions.cancel(id)} />
        ) : null}
        {tab.error ? (
          <div className="sql-error-row">
            <ErrorMessage error={tab.error.error} connectionId={id} compact />
            <Button
              size="sm"
              isBusy={assist.requestId !== undefined && assist.task === 'fix'}
              title="Ask the model for a corrected statement; nothing runs until you choose"
              onClick={() =>
                void assistActions.start(id, {
                  task: 'fix',
                  statement: current().text,
                  error: tab.error?.error.message ?? '',
                })
              }
            >
              Fix with AI
            </Button>
          </div>
        ) : null}
        {tab.cancelled ? <p className="sql-faint sql-note">Cancelled. Nothing partial was kept.</p> : null}
        <div className="sql-results">
          <div className="sql-tabs" role="tablist">
            <button
              type="button"
              role="tab"
              aria-selected={tab.view === 'results'}
              className={tab.view === 'results' ? 'is-active' : ''}
              onClick={() => actions.update(id, { view: 'results' })}
            >
              Results
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={tab.view === 'plan'}
              className={tab.view === 'plan' ? 'is-active' : ''}
              onClick={() => actions.update(id, { view: 'plan' })}
            >
              Plan
            </button>
          </div>
          {tab.view === 'plan' ? (
            tab.plan ? (
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
                <PlanView plan={tab.plan} />
              </>
            ) : (
              <p className="sql-faint sql-note">
                Press Plan to see the DynamoDB calls a statement will make before running it.
              </p>
            )
          ) : tab.summary ? (
            <ResultsPanel connectionId={id} summary={tab.summary} />
          ) : (
            <p className="sql-faint sql-note">
              Results appear here. Tables and entity views are on the left; click one to add it.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
