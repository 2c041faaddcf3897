import { describe, expect, it } from 'vitest';
import {
  ariaKeys,
  codeMirrorKeys,
  formatShortcut,
  matches,
  shortcuts,
  type Chord,
} from '../../src/renderer/features/keyboard/shortcuts';
import { rovingTabIndex, tabKeyTarget } from '../../src/renderer/features/keyboard/tab-keys';

// Node has no navigator here, so the registry speaks for Ctrl (Windows/Linux), as in browser mode on CI.
const key = (init: Partial<KeyboardEvent>): KeyboardEvent =>
  ({
    key: '',
    code: '',
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...init,
  }) as KeyboardEvent;

describe('the keyboard map', () => {
  it('tells run from plan by Shift, and neither from a plain Enter', () => {
    expect(matches('run', key({ key: 'Enter', ctrlKey: true }))).toBe(true);
    expect(matches('plan', key({ key: 'Enter', ctrlKey: true }))).toBe(false);
    expect(matches('plan', key({ key: 'Enter', ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matches('run', key({ key: 'Enter', ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(matches('run', key({ key: 'Enter' }))).toBe(false);
    expect(matches('send-question', key({ key: 'Enter' }))).toBe(true);
    expect(matches('send-question', key({ key: 'Enter', shiftKey: true }))).toBe(false);
  });

  it('takes Ctrl+K in either case but not with ⌘ on a non-Mac, and ? whatever Shift says', () => {
    expect(matches('filter-tables', key({ key: 'K', ctrlKey: true, shiftKey: false }))).toBe(true);
    expect(matches('filter-tables', key({ key: 'k', metaKey: true }))).toBe(false);
    expect(matches('help', key({ key: '?', shiftKey: true }))).toBe(true);
    expect(matches('help', key({ key: 'F1' }))).toBe(true);
    expect(matches('help', key({ key: '/' }))).toBe(false);
  });

  it('reads Alt+digit from the physical key too (Alt+2 types ™ or ² on some layouts)', () => {
    expect(matches('nth-tab', key({ key: '2', code: 'Digit2', altKey: true }))).toBe(true);
    expect(matches('nth-tab', key({ key: '²', code: 'Digit2', altKey: true }))).toBe(true);
    expect(matches('nth-tab', key({ key: '0', code: 'Digit0', altKey: true }))).toBe(false);
    expect(matches('nth-tab', key({ key: '2', code: 'Digit2' }))).toBe(false);
  });

  it('opens a statement tab on Ctrl+Alt+T even when the layout turns it into another character', () => {
    expect(matches('new-sql-tab', key({ key: 'þ', code: 'KeyT', ctrlKey: true, altKey: true }))).toBe(true);
    expect(matches('new-sql-tab', key({ key: 't', code: 'KeyT', ctrlKey: true }))).toBe(false);
    expect(matches('close-sql-tab', key({ key: 'w', code: 'KeyW', ctrlKey: true, altKey: true }))).toBe(true);
  });

  it('writes each chord the same way for people, CodeMirror and screen readers', () => {
    expect(formatShortcut('plan')).toBe('Ctrl Shift Enter');
    expect(formatShortcut('help')).toBe('F1 or ?');
    expect(codeMirrorKeys('plan')).toEqual(['Shift-Mod-Enter']);
    expect(ariaKeys('save-item')).toBe('Control+s');
    // Refresh and the editor's undo of a save, as their buttons' tooltips and names carry them.
    expect(formatShortcut('refresh')).toBe('F5');
    expect(ariaKeys('refresh')).toBe('F5');
    expect(formatShortcut('undo-save')).toBe('Ctrl Z');
    expect(matches('undo-save', key({ key: 'z', code: 'KeyZ', ctrlKey: true }))).toBe(true);
    expect(matches('undo-save', key({ key: 'z', code: 'KeyZ', ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it('gives no chord two meanings in one place (Anywhere counts as every place)', () => {
    const spelled = (chord: Chord) =>
      `${chord.mod ? 'mod+' : ''}${chord.shift ? 'shift+' : ''}${chord.alt ? 'alt+' : ''}${chord.key}`;
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    const places = [...new Set(shortcuts.map((s) => s.where))].filter((where) => where !== 'Anywhere');
    for (const shortcut of shortcuts) {
      if ('isSequence' in shortcut) continue;
      for (const where of shortcut.where === 'Anywhere' ? places : [shortcut.where]) {
        for (const chord of shortcut.chords) {
          const slot = `${where}:${spelled(chord)}`;
          const other = seen.get(slot);
          // The same action listed in two places (Ctrl+Enter runs in Items and in SQL) is consistency, not a clash.
          if (other !== undefined && other !== shortcut.id)
            clashes.push(`${slot} is ${other} and ${shortcut.id}`);
          seen.set(slot, shortcut.id);
        }
      }
    }
    expect(clashes).toEqual([]);
  });
});

describe('moving between tabs (the ARIA tabs pattern)', () => {
  const ids = ['home', 'tool:sql', 'table:a', 'table:b'];
  it('wraps the arrows round, takes Home and End, and leaves other keys and chords alone', () => {
    expect(tabKeyTarget(key({ key: 'ArrowRight' }), ids, 'table:a')).toBe('table:b');
    expect(tabKeyTarget(key({ key: 'ArrowRight' }), ids, 'table:b')).toBe('home');
    expect(tabKeyTarget(key({ key: 'ArrowLeft' }), ids, 'home')).toBe('table:b');
    expect(tabKeyTarget(key({ key: 'Home' }), ids, 'table:a')).toBe('home');
    expect(tabKeyTarget(key({ key: 'End' }), ids, 'home')).toBe('table:b');
    expect(tabKeyTarget(key({ key: 'ArrowDown' }), ids, 'home')).toBeUndefined();
    expect(tabKeyTarget(key({ key: 'ArrowRight', ctrlKey: true }), ids, 'home')).toBeUndefined();
    expect(tabKeyTarget(key({ key: 'Home', shiftKey: true }), ids, 'home')).toBeUndefined();
    expect(tabKeyTarget(key({ key: 'End' }), [], 'home')).toBeUndefined();
  });

  it('puts exactly one tab in the Tab order: the selected one, else the first', () => {
    expect(ids.map((id) => rovingTabIndex(ids, 'table:a', id))).toEqual([-1, -1, 0, -1]);
    expect(ids.map((id) => rovingTabIndex(ids, 'gone', id))).toEqual([0, -1, -1, -1]);
  });
});
