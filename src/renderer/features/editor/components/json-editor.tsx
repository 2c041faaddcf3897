import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab, undo } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import {
  bracketMatching,
  codeFolding,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { useEditorError, useEditorText } from '../../../ui/code-editor-sync';
import { codeEditorTheme } from '../../../ui/code-theme';

/** JSON token colours from variables that follow the theme (items.css, .json-editor). */
/**
 * Undo as CodeMirror binds it, except that Ctrl+Z with nothing of the user's left to undo is not
 * marked handled: the item editor then takes it as undoing the last save (item-editor.tsx).
 * CodeMirror's own binding marks the key handled whether or not anything was undone.
 */
const undoKeys = [{ key: 'Mod-z', run: undo }, ...historyKeymap.filter((binding) => binding.key !== 'Mod-z')];

const jsonHighlight = HighlightStyle.define([
  { tag: tags.propertyName, color: 'var(--json-key)' },
  { tag: tags.string, color: 'var(--json-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--json-number)' },
]);

export interface JsonEditorProps {
  label: string;
  value: string;
  /** Where the text stops parsing: marked at its line in the gutter and underlined in place. */
  error?: { offset: number; message: string };
  onChange(text: string): void;
  /**
   * Set when the editor this one replaces had focus as it went (a save starts the text again):
   * this one takes focus once it is made, and clears it.
   */
  refocusRef?: RefObject<boolean>;
}

/**
 * CodeMirror 6 for an item as JSON: highlighting, folding of maps and lists, bracket matching,
 * undo, and the parse error at its line. The text stays the user's: it is replaced from outside
 * only when the value differs from what the editor holds.
 */
export function JsonEditor({ label, value, error, onChange, refocusRef }: JsonEditorProps) {
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
          // A pasted one-line item stays readable without scrolling sideways.
          EditorView.lineWrapping,
          syntaxHighlighting(jsonHighlight),
          keymap.of([...closeBracketsKeymap, ...foldKeymap, ...undoKeys, indentWithTab, ...defaultKeymap]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          // tabindex as in the SQL editor: an editor whose content has none reads as unreachable by keyboard.
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            role: 'textbox',
            tabindex: '0',
          }),
          codeEditorTheme,
        ],
      }),
    });
    view.current = editor;
    if (refocusRef?.current) {
      refocusRef.current = false;
      editor.focus();
    }
    return () => editor.destroy();
    // Created once; text and error changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEditorText(view, value);
  const offset = error?.offset;
  const message = error?.message;
  const mark = useMemo(
    () =>
      offset === undefined || message === undefined ? undefined : { from: offset, to: offset + 1, message },
    [offset, message],
  );
  useEditorError(view, mark);

  return <div className={`json-editor${error ? ' has-error' : ''}`} ref={host} />;
}
