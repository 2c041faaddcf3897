import { useEffect } from 'react';
import { matches } from '../keyboard/shortcuts';
import { homeTab, useWorkspaceStore } from './store';

/**
 * Shows the table list and puts focus in its filter (Ctrl+K, the "Skip to the table list" link).
 * Returns nothing to focus itself: the list renders on the next frame when another tab was active.
 */
export function focusTableList(): null {
  useWorkspaceStore.getState().activate(homeTab);
  requestAnimationFrame(() => {
    const filter = document.getElementById('table-filter');
    if (filter instanceof HTMLInputElement) {
      filter.focus();
      filter.select();
    }
  });
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
