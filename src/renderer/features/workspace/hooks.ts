import { useEffect } from 'react';
import { matches } from '../keyboard/shortcuts';
import { homeTab, useWorkspaceStore } from './store';

/** Focuses the table filter with its text selected; false when the list is not on screen. */
function focusFilter(): boolean {
  const filter = document.getElementById('table-filter');
  if (!(filter instanceof HTMLInputElement)) return false;
  filter.focus();
  filter.select();
  return document.activeElement === filter;
}

/**
 * Shows the table list and puts focus in its filter (Ctrl+K, the "Skip to the table list" link).
 * Returns nothing to focus itself. When the list is on screen the filter is focused at once: a
 * deferred select() would select what the user had typed since the key and the next character
 * would replace it. When another tab was active the list renders on the next frame.
 */
export function focusTableList(): null {
  useWorkspaceStore.getState().activate(homeTab);
  if (!focusFilter()) requestAnimationFrame(focusFilter);
  return null;
}

/**
 * App-wide keys (see features/keyboard/shortcuts.ts): the table filter and the n-th tab. Esc is
 * handled by each dialog (native <dialog> cancel) and by the filter (clears it).
 */
export function useWorkspaceShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!useWorkspaceStore.getState().activeConnectionId || document.querySelector('dialog[open]')) return;
      if (matches('filter-tables', event)) {
        event.preventDefault();
        focusTableList();
        return;
      }
      if (matches('nth-tab', event)) {
        const tabs = document.querySelectorAll<HTMLElement>('.tab-strip [role="tab"]');
        const target = tabs[Number(event.code.slice(-1)) - 1];
        if (target) {
          event.preventDefault();
          target.click();
        }
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
