import { useEffect } from 'react';
import { matches } from '../keyboard/shortcuts';
import { homeTab, useWorkspaceStore } from './store';

/**
 * App-wide keys (see features/keyboard/shortcuts.ts): the table filter and the n-th tab. Esc is
 * handled by each dialog (native <dialog> cancel) and by the filter (clears it).
 */
export function useWorkspaceShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const workspace = useWorkspaceStore.getState();
      if (!workspace.activeConnectionId || document.querySelector('dialog[open]')) return;
      if (matches('filter-tables', event)) {
        event.preventDefault();
        workspace.activate(homeTab);
        // The list renders on the next frame when another tab was active.
        requestAnimationFrame(() => {
          const filter = document.getElementById('table-filter');
          if (filter instanceof HTMLInputElement) {
            filter.focus();
            filter.select();
          }
        });
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
