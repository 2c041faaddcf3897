import { useEffect, useRef, useState, type ReactNode } from 'react';
import { moveFocus } from './move-focus';

export interface PopoverProps {
  /** The accessible name, e.g. "Columns". */
  label: string;
  className?: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A non-modal panel over the page (a value in full, the column chooser): Esc closes it and focus
 * goes back to whatever opened it, as with the modal Dialog, but the page behind stays usable.
 */
export function Popover({ label, className, onClose, children }: PopoverProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    if (ref.current) moveFocus(ref.current);
    return () => {
      // Only when focus was still inside: a click elsewhere already put it where the user wanted.
      if (opener?.isConnected && (!document.activeElement || document.activeElement === document.body))
        moveFocus(opener);
    };
  }, [opener]);

  return (
    <div
      ref={ref}
      className={`popover${className ? ` ${className}` : ''}`}
      role="dialog"
      aria-label={label}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      {children}
    </div>
  );
}
