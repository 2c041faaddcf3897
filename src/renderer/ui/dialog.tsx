import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { Button } from './button';
import { moveFocus } from './move-focus';

export interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** The dialog's actions; a dialog that does work lays them out with DialogActions. */
  footer?: ReactNode;
  /**
   * The primary action, for Enter in a one-line field of the dialog, as a form's submit: the
   * caller passes it only while the action may run. A field that handles Enter itself (and
   * prevents its default) keeps it.
   */
  onEnter?: () => void;
  width?: 'sm' | 'md' | 'lg' | 'xl';
}

/** Fields where Enter means "done typing": not a textarea, a select, a button or a checkbox. */
const oneLineTypes = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password']);

export interface DialogActionsProps {
  /** What the work is doing or did, at the footer's left. */
  status?: ReactNode;
  /** "Cancel" before anything was sent, "Close (… goes on)" while work runs, "Close" after. */
  closeLabel: string;
  onClose(): void;
  /** For a dialog that hands focus to Close once its work ends (the pressed button turns disabled). */
  closeRef?: Ref<HTMLButtonElement>;
  /** The step that shows what the primary action would do (Dry run), between Close and it. */
  secondary?: ReactNode;
  /** The one primary action, at the right (Create table, Copy, Export…, then Open …). */
  primary?: ReactNode;
}

/**
 * The footer of every dialog that starts long work (Create table, Copy to…, Export, Import,
 * Delete or update items): its status, then Close or Cancel, then the primary action, in the same
 * places; Enter in a field runs the next step (Dialog's onEnter) and Escape closes, in each of them.
 */
export function DialogActions({
  status,
  closeLabel,
  onClose,
  closeRef,
  secondary,
  primary,
}: DialogActionsProps) {
  return (
    <>
      <span className="dialog-footer-status">{status}</span>
      <Button onClick={onClose} ref={closeRef}>
        {closeLabel}
      </Button>
      {secondary}
      {primary}
    </>
  );
}

const tabbable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

const firstField =
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/**
 * A modal built on the native <dialog>: the browser traps focus, makes the rest inert and turns
 * Esc into a "cancel" event, which we route to onClose so React state stays the source of truth.
 * Every dialog in the app is this one, so focus handling lives here once.
 */
export function Dialog({ title, onClose, children, footer, onEnter, width = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Read during the first render: by the time effects run, a child's autoFocus has already moved focus.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const focusedByChild = dialog.contains(document.activeElement) ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // showModal() focuses the first focusable element, which is the header's ×: start on the
    // field a child asked for, else the body's first control, so typing can begin at once.
    const start = focusedByChild ?? dialog.querySelector<HTMLElement>(`.dialog-body :is(${firstField})`);
    if (start instanceof HTMLElement) moveFocus(start);
    return () => {
      dialog.close();
      // React removes the element before this runs, so the browser's own restore cannot happen;
      // hand focus back to what opened the dialog, if it is still on screen.
      if (opener?.isConnected) moveFocus(opener);
    };
  }, [opener]);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${width}`}
      aria-label={title}
      onKeyDown={(event) => {
        const target = event.target;
        if (
          event.key === 'Enter' &&
          onEnter &&
          !event.defaultPrevented &&
          !event.nativeEvent.isComposing &&
          target instanceof HTMLInputElement &&
          oneLineTypes.has(target.type)
        ) {
          event.preventDefault();
          onEnter();
          return;
        }
        // showModal() makes the page inert but lets Tab leave the last control for the browser's
        // own UI; wrap instead, so focus stays in the dialog until it closes.
        if (event.key !== 'Tab' || !ref.current) return;
        const controls = [...ref.current.querySelectorAll<HTMLElement>(tabbable)].filter(
          (element) => element.offsetParent !== null || element === document.activeElement,
        );
        const first = controls[0];
        const last = controls.at(-1);
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-inner">
        <header className="dialog-header">
          <h2>{title}</h2>
          {/* Named apart from the footer's Close, Cancel or Done, so a screen reader's list of
              buttons says which is which; its tooltip teaches Escape to a mouse user. */}
          <button
            type="button"
            className="icon-button"
            aria-label="Close the dialog"
            title="Close (Esc)"
            onClick={onClose}
          >
            ×
          </button>
        </header>
        <div className="dialog-body">{children}</div>
        {footer ? <footer className="dialog-footer">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
