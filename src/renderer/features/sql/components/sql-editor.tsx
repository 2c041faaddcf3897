import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  closeCompletion,
  completionKeymap,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { PostgreSQL, sql, SQLDialect, type SQLNamespace, StandardSQL } from '@codemirror/lang-sql';
import { Compartment, EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  placeholder,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { type StatementRange, statementAt } from '../statement-at';
import { useEditorError, useEditorText } from '../../../ui/code-editor-sync';
import { codeEditorTheme } from '../../../ui/code-theme';
import { codeMirrorKeys } from '../../keyboard/shortcuts';
import { sqlHighlight } from './sql-highlight';

/** DynoTable's functions, so they highlight and complete like the built-in ones. */
const FUNCTIONS =
  'count sum avg min max coalesce ifnull nullif greatest least lower upper length trim ltrim rtrim substr substring left right replace concat split_part begins_with starts_with contains size type_of abs round floor ceil ceiling now to_epoch_ms to_iso date_trunc date_part extract date_add date_diff cast grouping row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value';

const dialect = SQLDialect.define({
  ...StandardSQL.spec,
  // lang-sql applies `builtin` only together with an explicit keyword list. PostgreSQL's has
  // everything DynoTable accepts (OVER, PARTITION, ROLLUP, INTERSECT, UNBOUNDED, ...) but two.
  keywords: `${PostgreSQL.spec.keywords ?? ''} qualify missing`,
  types: PostgreSQL.spec.types,
  builtin: `${StandardSQL.spec.builtin ?? ''} ${FUNCTIONS}`,
  identifierQuotes: '"`',
  caseInsensitiveIdentifiers: true,
});

export interface EditorError {
  from: number;
  to: number;
  message: string;
}

export interface SqlEditorProps {
  value: string;
  schema: SQLNamespace;
  error?: EditorError;
  onChange(text: string): void;
  onRun(statement: StatementRange): void;
  onPlan(statement: StatementRange): void;
  /** The statement the toolbar's Run and Plan buttons would use, as the cursor moves. */
  onCursor?(statement: StatementRange): void;
  /** Whether a statement of this tab is running: the completion popup closes when one starts. */
  isRunning?: boolean;
}

/**
 * CodeMirror 6 with SQL highlighting, completion of tables, entity views and attribute paths,
 * Ctrl/Cmd+Enter to run the statement under the cursor (or the selection), Shift+Ctrl/Cmd+Enter
 * to show its plan, and the last error underlined where it is.
 */
export function SqlEditor({
  value,
  schema,
  error,
  onChange,
  onRun,
  onPlan,
  onCursor,
  isRunning,
}: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const language = useRef(new Compartment());
  const callbacks = useRef({ onChange, onRun, onPlan, onCursor });
  // The editor's handlers read the latest props through this ref; refreshed after each render.
  useEffect(() => {
    callbacks.current = { onChange, onRun, onPlan, onCursor };
  });

  useEffect(() => {
    const current = (target: EditorView): StatementRange => {
      const { main } = target.state.selection;
      return statementAt(target.state.doc.toString(), main.head, { from: main.from, to: main.to });
    };
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          syntaxHighlighting(sqlHighlight),
          placeholder('SELECT … FROM …'),
          language.current.of(sql({ dialect, schema, upperCaseKeywords: true })),
          keymap.of([
            ...codeMirrorKeys('run').map((key) => ({
              key,
              run: (target: EditorView) => {
                // Ctrl+Enter is the run key, not a completion key: the popup would stay over the
                // editor, offering words for a statement that is already running.
                closeCompletion(target);
                callbacks.current.onRun(current(target));
                return true;
              },
            })),
            ...codeMirrorKeys('plan').map((key) => ({
              key,
              run: (target: EditorView) => (callbacks.current.onPlan(current(target)), true),
            })),
            ...closeBracketsKeymap,
            ...completionKeymap,
            ...historyKeymap,
            indentWithTab,
            ...defaultKeymap,
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
            if (update.docChanged || update.selectionSet) callbacks.current.onCursor?.(current(update.view));
          }),
          // An explicit tabindex: axe (and some screen readers) count a contenteditable without one
          // as not focusable, and then call the editor's scroller a region the keyboard cannot reach.
          EditorView.contentAttributes.of({ 'aria-label': 'SQL statement', tabindex: '0' }),
          codeEditorTheme,
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is created once; value and schema changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({
      effects: language.current.reconfigure(sql({ dialect, schema, upperCaseKeywords: true })),
    });
  }, [schema]);

  // However the run started (the Run button, the shortcut from outside the editor, Use and run),
  // an open completion popup has nothing left to complete.
  useEffect(() => {
    if (isRunning && view.current) closeCompletion(view.current);
  }, [isRunning]);

  useEditorText(view, value);
  useEditorError(view, error);

  return <div className="sql-editor" ref={host} />;
}
