/**
 * Moves focus for the user (a dialog opening or closing, a view arriving, a skip link) and makes
 * it show. `:focus-visible` does not match focus a script moves after a mouse click (Chromium's
 * heuristic follows the last input), so a dialog opened with the mouse started on a control with
 * no ring and the user could not see where typing would go. The element is marked
 * `data-focus-moved` until it loses focus; styles/base.css draws the same ring for it.
 */
export function moveFocus(element: HTMLElement, options?: FocusOptions): void {
  element.setAttribute('data-focus-moved', '');
  element.addEventListener('blur', () => element.removeAttribute('data-focus-moved'), { once: true });
  element.focus(options);
  // Focus refused (hidden, inert): no mark left behind to draw a ring on a later, ordinary focus.
  if (document.activeElement !== element) element.removeAttribute('data-focus-moved');
}
