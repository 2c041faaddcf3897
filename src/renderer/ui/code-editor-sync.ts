import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import type { EditorView } from '@codemirror/view';
import { useEffect, type RefObject } from 'react';

/** Puts `value` in the editor when it differs from what the editor holds (an edit from outside). */
export function useEditorText(view: RefObject<EditorView | undefined>, value: string): void {
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [view, value]);
}

/** Marks one error where it is (underlined, and in the lint gutter when the editor has one). */
export function useEditorError(
  view: RefObject<EditorView | undefined>,
  error: { from: number; to: number; message: string } | undefined,
): void {
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = error
      ? [
          {
            from: Math.min(error.from, length),
            to: Math.min(Math.max(error.to, error.from + 1), length),
            severity: 'error',
            message: error.message,
          },
        ]
      : [];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [view, error]);
}
