import { useEffect } from 'react';
import { matches } from '../keyboard/shortcuts';
import { splitConnectionId } from '../../../shared/dynamo/regions';
import { homeTab, tableKeyIn, tableTabId, useWorkspaceStore } from './store';

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
 * After a table was deleted (through `connectionId`, which names its region when it is another
 * one): its tab closes, the workspace says so, and a user who was on it lands on the table list
 * with focus in its filter. A user who moved to another view stays there.
 */
export function showTableDeleted(connectionId: string, name: string): void {
  const { connectionId: base, region } = splitConnectionId(connectionId);
  const key = tableKeyIn(connectionId, name);
  const store = useWorkspaceStore.getState();
  const wasOnIt = store.activeConnectionId === base && store.tabs[base]?.active === tableTabId(key);
  store.closeDeletedTable(base, key, `Table ${name}${region ? ` in ${region}` : ''} deleted.`);
  if (wasOnIt) focusTableList();
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
