import { useEffect } from 'react';
import { homeTab, useWorkspaceStore } from './store';

function isModifier(event: KeyboardEvent): boolean {
  // ⌘ on macOS, Ctrl elsewhere; never both, so Ctrl+K on a Mac keeps its text-editing meaning.
  return navigator.platform.startsWith('Mac')
    ? event.metaKey && !event.ctrlKey
    : event.ctrlKey && !event.metaKey;
}

/**
 * App-wide keys. Ctrl/⌘+K: the table filter. Alt+1…9: the n-th tab. Esc is handled by each
 * dialog (native <dialog> cancel) and by the filter (clears it).
 */
export function useWorkspaceShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const workspace = useWorkspaceStore.getState();
      if (!workspace.activeConnectionId || document.querySelector('dialog[open]')) return;
      if (isModifier(event) && event.key.toLowerCase() === 'k') {
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
      if (event.altKey && !event.ctrlKey && !event.metaKey && /^[1-9]$/.test(event.key)) {
        const tabs = document.querySelectorAll<HTMLElement>('.tab-strip [role="tab"]');
        const target = tabs[Number(event.key) - 1];
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
