import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import {
  bracketMatching,
  codeFolding,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { codeEditorTheme } from '../../../ui/code-theme';

/** JSON token colours from the theme's variables (the SQL editor's palette). */
const jsonHighlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--sql-function)' },
  { tag: tags.string, color: 'var(--sql-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--sql-number)' },
]);

export interface JsonEditorProps {
  label: string;
  value: string;
  /** Where the text stops parsing: marked at its line in the gutter and underlined in place. */
  error?: { offset: number; message: string };
  onChange(text: string): void;
}

/**
 * CodeMirror 6 for an item as JSON: highlighting, folding of maps and lists, bracket matching,
 * undo, and the parse error at its line. The text stays the user's: it is replaced from outside
 * only when the value differs from what the editor holds.
 */
export function JsonEditor({ label, value, error, onChange }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          codeFolding(),
          foldGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          json(),
          syntaxHighlighting(jsonHighlight),
          keymap.of([
            ...closeBracketsKeymap,
            ...foldKeymap,
            ...historyKeymap,
            indentWithTab,
            ...defaultKeymap,
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' }),
          codeEditorTheme,
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // Created once; text and error changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = error
      ? [
          {
            from: Math.min(error.offset, length),
            to: Math.min(error.offset + 1, length),
            severity: 'error',
            message: error.message,
          },
        ]
      : [];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [error]);

  return <div className={`json-editor${error ? ' has-error' : ''}`} ref={host} />;
}
