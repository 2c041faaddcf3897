import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useId, useRef } from 'react';
import { matches } from './shortcuts';

/**
 * The ARIA tabs pattern's move keys: Left/Right go to the neighbour (wrapping round, as the
 * pattern suggests), Home/End to the first/last tab. Undefined when the key is not a move.
 */
export function tabKeyTarget(
  event: KeyboardEvent,
  ids: readonly string[],
  current: string,
): string | undefined {
  if (ids.length === 0 || !matches('next-tab', event)) return undefined;
  if (event.key === 'Home') return ids[0];
  if (event.key === 'End') return ids[ids.length - 1];
  const index = Math.max(0, ids.indexOf(current));
  const delta = event.key === 'ArrowRight' ? 1 : -1;
  return ids[(index + delta + ids.length) % ids.length];
}

/** The tab that takes Tab: the selected one, or the first when none is (roving tabindex). */
export const rovingTabIndex = (ids: readonly string[], active: string, id: string): 0 | -1 =>
  id === active || (!ids.includes(active) && id === ids[0]) ? 0 : -1;

export interface TabStripKeys {
  /** The id of the element with role="tablist": where focus goes back to the selected tab. */
  listId: string;
  /** On each tab; true when it handled the key (a move). */
  onKeyDown(event: ReactKeyboardEvent): boolean;
  /** After a change that removes the focused tab (closing it): focus the one selected next. */
  focusSelectedAfterRender(): void;
}

/**
 * Arrow keys, Home and End between the tabs of one tablist, activating the tab they land on
 * (automatic activation: a tab's panel is already loaded or shows its own progress), and moving
 * focus to it once it has rendered as selected.
 */
export function useTabStripKeys(
  ids: readonly string[],
  active: string,
  activate: (id: string) => void,
): TabStripKeys {
  // An id, not a ref: the list is found after render, and a tablist may be a nav or a div.
  const listId = useId();
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    document
      .getElementById(listId)
      ?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
      ?.focus();
  });
  return {
    listId,
    onKeyDown(event) {
      const target = tabKeyTarget(event.nativeEvent, ids, active);
      if (target === undefined) return false;
      event.preventDefault();
      // A lone tab moves onto itself: nothing renders, so nothing must wait to take focus.
      if (target === active) return true;
      pending.current = true;
      activate(target);
      return true;
    },
    focusSelectedAfterRender() {
      pending.current = true;
    },
  };
}
