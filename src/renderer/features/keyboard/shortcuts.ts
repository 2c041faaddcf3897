/**
 * The one list of keyboard shortcuts. Handlers ask `matches(id, event)`, CodeMirror keymaps take
 * `codeMirrorKeys(id)`, and the help overlay (F1 or ?) renders this list, so a key cannot do one
 * thing and be documented as another.
 */
export interface Chord {
  /** A KeyboardEvent.key, or 'digit' for 1…9. */
  key: string;
  /** ⌘ on macOS, Ctrl elsewhere; never both, so Ctrl+K on a Mac keeps its text-editing meaning. */
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
}

export interface Shortcut {
  id: string;
  where:
    | 'Anywhere'
    | 'Tab strips'
    | 'Dialogs'
    | 'Table list'
    | 'Open table'
    | 'Items'
    | 'Item grid'
    | 'Cell editor'
    | 'Item editor'
    | 'SQL'
    | 'SQL results'
    | 'Assistant';
  does: string;
  chords: Chord[];
  /** The chords are pressed one after the other, not as alternatives. */
  isSequence?: boolean;
}

export const shortcuts = [
  { id: 'help', where: 'Anywhere', does: 'Show these shortcuts', chords: [{ key: 'F1' }, { key: '?' }] },
  {
    id: 'filter-tables',
    where: 'Anywhere',
    does: 'Go to the table list and filter it',
    chords: [{ key: 'k', mod: true }],
  },
  {
    id: 'agent-proposals',
    where: 'Anywhere',
    does: 'Show the writes coding agents proposed (MCP), waiting for your approval',
    chords: [{ key: 'p', mod: true, shift: true }],
  },
  {
    id: 'nth-tab',
    where: 'Anywhere',
    does: 'Go to the first… ninth tab',
    chords: [{ key: 'digit', alt: true }],
  },
  {
    id: 'next-tab',
    where: 'Tab strips',
    does: 'Previous or next tab (Home, End: first, last)',
    chords: [{ key: 'ArrowLeft' }, { key: 'ArrowRight' }, { key: 'Home' }, { key: 'End' }],
  },
  // Not Ctrl+W: the browser (browser mode) never lets a page have it, and Electron's window menu takes it.
  {
    id: 'close-tab',
    where: 'Anywhere',
    does: 'Close the focused tab (a table, a SQL statement)',
    chords: [{ key: 'Delete' }],
  },
  {
    id: 'close',
    where: 'Dialogs',
    does: 'Close the dialog or popover, focus back where it was',
    chords: [{ key: 'Escape' }],
  },
  {
    id: 'open-only-table',
    where: 'Table list',
    does: 'Open the only table the filter leaves',
    chords: [{ key: 'Enter' }],
  },
  { id: 'clear-filter', where: 'Table list', does: 'Clear the filter', chords: [{ key: 'Escape' }] },
  {
    id: 'to-first-table',
    where: 'Table list',
    does: 'From the filter: to the first table (Tab: skip link to the tables)',
    chords: [{ key: 'ArrowDown' }],
  },
  // F5, as in the desktop database clients; browser mode's page reload stays on Ctrl+R.
  {
    id: 'refresh',
    where: 'Open table',
    does: 'Refresh: read the table again (on Items, its items too)',
    chords: [{ key: 'F5' }],
  },
  { id: 'run', where: 'Items', does: 'Run the query or scan', chords: [{ key: 'Enter', mod: true }] },
  // The grid's keys (the ARIA grid pattern, src/renderer/ui/grid-keys.ts, ui/use-grid-keyboard.ts and
  // use-grid-focus.ts): listed here so the F1 map and docs/ACCESSIBILITY.md show the whole grid.
  {
    id: 'grid-move',
    where: 'Item grid',
    does: 'Next cell; on a collection header ← → collapse and expand it',
    chords: [{ key: 'ArrowUp' }, { key: 'ArrowDown' }, { key: 'ArrowLeft' }, { key: 'ArrowRight' }],
  },
  {
    id: 'grid-page',
    where: 'Item grid',
    does: 'A page of rows up or down',
    chords: [{ key: 'PageUp' }, { key: 'PageDown' }],
  },
  {
    id: 'grid-row-ends',
    where: 'Item grid',
    does: 'First or last cell of the row',
    chords: [{ key: 'Home' }, { key: 'End' }],
  },
  {
    id: 'grid-ends',
    where: 'Item grid',
    does: 'First or last row',
    chords: [
      { key: 'Home', mod: true },
      { key: 'End', mod: true },
    ],
  },
  {
    id: 'grid-edit',
    where: 'Item grid',
    does: 'Edit a text, number or true/false cell in place (so does a double-click); on a key, a nested value or the row’s check box, open the item editor; on a column header, sort',
    chords: [{ key: 'Enter' }, { key: 'F2' }],
  },
  {
    id: 'grid-select',
    where: 'Item grid',
    does: 'Select the row (Shift Space: every row from the last one picked); on a column header, sort',
    chords: [{ key: ' ' }, { key: ' ', shift: true }],
  },
  {
    id: 'grid-copy',
    where: 'Item grid',
    does: 'Copy the cell’s value as text (on the check box: the item as DynamoDB JSON)',
    chords: [{ key: 'c', mod: true }],
  },
  {
    id: 'cell-keep',
    where: 'Cell editor',
    does: 'Keep the value: staged until you commit it (a bad number is refused with a sentence)',
    chords: [{ key: 'Enter' }],
  },
  { id: 'cell-cancel', where: 'Cell editor', does: 'Leave the cell as it was', chords: [{ key: 'Escape' }] },
  { id: 'save-item', where: 'Item editor', does: 'Save the item', chords: [{ key: 's', mod: true }] },
  {
    id: 'undo-save',
    where: 'Item editor',
    does: 'Undo the last save, once the text holds no edit of yours left to undo',
    chords: [{ key: 'z', mod: true }],
  },
  {
    id: 'run',
    where: 'SQL',
    does: 'Run the statement at the cursor (or the selection)',
    chords: [{ key: 'Enter', mod: true }],
  },
  {
    id: 'plan',
    where: 'SQL',
    does: 'Show the plan of that statement',
    chords: [{ key: 'Enter', mod: true, shift: true }],
  },
  { id: 'rename-sql-tab', where: 'SQL', does: 'Rename the focused statement tab', chords: [{ key: 'F2' }] },
  // Alt as well: the browser keeps Ctrl+T and Ctrl+W for its own tabs.
  {
    id: 'new-sql-tab',
    where: 'SQL',
    does: 'New statement tab',
    chords: [{ key: 't', mod: true, alt: true }],
  },
  {
    id: 'close-sql-tab',
    where: 'SQL',
    does: 'Close the statement tab',
    chords: [{ key: 'w', mod: true, alt: true }],
  },
  // The SQL results grid runs on the item grid's keyboard model (ui/use-grid-keyboard.ts).
  {
    id: 'sql-grid-move',
    where: 'SQL results',
    does: 'Next cell, a page of rows, first or last cell of the row (Ctrl: first or last row)',
    chords: [
      { key: 'ArrowUp' },
      { key: 'ArrowDown' },
      { key: 'ArrowLeft' },
      { key: 'ArrowRight' },
      { key: 'PageUp' },
      { key: 'PageDown' },
      { key: 'Home' },
      { key: 'End' },
    ],
  },
  {
    id: 'sql-grid-open',
    where: 'SQL results',
    does: 'Show the cell’s value in full; on a row number, open its item',
    chords: [{ key: 'Enter' }, { key: 'F2' }],
  },
  {
    id: 'sql-grid-copy',
    where: 'SQL results',
    does: 'Copy the cell’s value as text',
    chords: [{ key: 'c', mod: true }],
  },
  { id: 'send-question', where: 'Assistant', does: 'Send the question', chords: [{ key: 'Enter' }] },
  {
    id: 'new-line',
    where: 'Assistant',
    does: 'New line in the question',
    chords: [{ key: 'Enter', shift: true }],
  },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof shortcuts)[number]['id'];

const isMac = (): boolean => typeof navigator !== 'undefined' && navigator.platform.startsWith('Mac');

function chordMatches(chord: Chord, event: KeyboardEvent): boolean {
  const mod = isMac() ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  const noMod = !event.metaKey && !event.ctrlKey;
  if (chord.mod ? !mod : !noMod) return false;
  if (Boolean(chord.alt) !== event.altKey) return false;
  // '?' is Shift+/ on most layouts: its shift is part of the character, not a modifier to check.
  if (chord.key !== '?' && Boolean(chord.shift) !== event.shiftKey) return false;
  if (chord.key === 'digit') return /^[1-9]$/.test(event.key) || /^Digit[1-9]$/.test(event.code);
  // A letter also by its physical key: with Alt (AltGr on Windows) the character can be another one.
  if (/^[a-z]$/i.test(chord.key) && event.code === `Key${chord.key.toUpperCase()}`) return true;
  return event.key.length === 1
    ? event.key.toLowerCase() === chord.key.toLowerCase()
    : event.key === chord.key;
}

/** Whether the event is one of the chords of that shortcut (any of its places). */
export function matches(id: ShortcutId, event: KeyboardEvent): boolean {
  return shortcuts.some(
    (shortcut) => shortcut.id === id && shortcut.chords.some((chord) => chordMatches(chord, event)),
  );
}

function chordsOf(id: ShortcutId): readonly Chord[] {
  return shortcuts.find((shortcut) => shortcut.id === id)?.chords ?? [];
}

/** CodeMirror's spelling of the same chords ("Shift-Mod-Enter"). */
export function codeMirrorKeys(id: ShortcutId): string[] {
  return chordsOf(id).map((chord) =>
    [chord.shift ? 'Shift' : '', chord.alt ? 'Alt' : '', chord.mod ? 'Mod' : '', chord.key]
      .filter(Boolean)
      .join('-'),
  );
}

const keyNames: Record<string, string> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
  Escape: 'Esc',
  Enter: 'Enter',
  Delete: 'Del',
  digit: '1…9',
  ' ': 'Space',
};

/** The chord as this platform writes it: "⌘ Enter" on macOS, "Ctrl Enter" elsewhere. */
export function formatChord(chord: Chord): string {
  const mac = isMac();
  return [
    chord.mod ? (mac ? '⌘' : 'Ctrl') : '',
    chord.shift ? (mac ? '⇧' : 'Shift') : '',
    chord.alt ? (mac ? '⌥' : 'Alt') : '',
    keyNames[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key),
  ]
    .filter(Boolean)
    .join(' ');
}

export const formatShortcut = (id: ShortcutId): string => chordsOf(id).map(formatChord).join(' or ');

/** Typing into a field must keep plain characters such as "?" for itself. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** The aria-keyshortcuts spelling ("Control+S"), so a screen reader announces the key on the control. */
export function ariaKeys(id: ShortcutId): string {
  return chordsOf(id)
    .map((chord) =>
      [
        chord.mod ? (isMac() ? 'Meta' : 'Control') : '',
        chord.shift ? 'Shift' : '',
        chord.alt ? 'Alt' : '',
        chord.key,
      ]
        .filter(Boolean)
        .join('+'),
    )
    .join(' ');
}
