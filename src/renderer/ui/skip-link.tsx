import type { ReactNode } from 'react';
import { moveFocus } from './move-focus';

export interface SkipLinkProps {
  /** The element to land on, looked up when pressed (it may not exist when the link renders). */
  target(): HTMLElement | null | undefined;
  children: ReactNode;
}

/**
 * A "skip to …" control for keyboard users: out of sight until focused, then it shows where it is;
 * Enter moves focus past everything between here and the target. A button, not `<a href="#…">`:
 * the targets are a roving-tabindex cell or an input that cannot carry a stable fragment id.
 */
export function SkipLink({ target, children }: SkipLinkProps) {
  return (
    <button
      type="button"
      className="skip-link"
      onClick={() => {
        const element = target();
        if (element) moveFocus(element);
      }}
    >
      {children}
    </button>
  );
}

/**
 * Where focus lands when a view opens: the element marked `data-arrival` (the table filter), else
 * the view's level-one heading (made focusable for it).
 */
export function arrivalTarget(view: ParentNode | null | undefined): HTMLElement | null {
  if (!view) return null;
  const marked = view.querySelector<HTMLElement>('[data-arrival]');
  if (marked) return marked;
  const heading = view.querySelector<HTMLElement>('h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}
