import { Fragment, useEffect, useState } from 'react';
import { Dialog } from '../../../ui/dialog';
import { formatChord, isTyping, matches, shortcuts, type Shortcut } from '../shortcuts';
import '../keyboard.css';

const places: Shortcut['where'][] = [
  'Anywhere',
  'Tab strips',
  'Dialogs',
  'Table list',
  'Open table',
  'Items',
  'Item grid',
  'Cell editor',
  'Item editor',
  'SQL',
  'SQL results',
  'Assistant',
];

/** F1, or ? outside a text field, opens the list of shortcuts; Esc closes it. */
export function KeyboardHelp() {
  const [isOpen, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || !matches('help', event)) return;
      if (event.key === '?' && isTyping(event.target)) return;
      // Another dialog owns the keyboard until it closes.
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!isOpen) return null;
  return (
    <Dialog title="Keyboard shortcuts" width="md" onClose={() => setOpen(false)}>
      <div className="keyboard-help">
        {places.map((where) => (
          // An id holds no space: aria-labelledby would read "keys-Item grid" as two ids.
          <section key={where} aria-labelledby={`keys-${where.replace(/ /g, '-')}`}>
            <h3 id={`keys-${where.replace(/ /g, '-')}`}>{where}</h3>
            <dl>
              {shortcuts
                .filter((shortcut) => shortcut.where === where)
                .map((shortcut) => (
                  <Fragment key={`${shortcut.id}-${shortcut.does}`}>
                    <dt>
                      {shortcut.chords.map((chord, i) => (
                        <Fragment key={formatChord(chord)}>
                          {i > 0 ? (
                            <span className="muted">{'isSequence' in shortcut ? ' then ' : ' or '}</span>
                          ) : null}
                          <kbd>{formatChord(chord)}</kbd>
                        </Fragment>
                      ))}
                    </dt>
                    <dd>{shortcut.does}</dd>
                  </Fragment>
                ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
