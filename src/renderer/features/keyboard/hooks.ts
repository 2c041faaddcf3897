import { useEffect, type RefObject } from 'react';
import { matches } from './shortcuts';

/**
 * Ctrl/⌘+Enter submits this form from anywhere on its page (the grid, a button, nothing
 * focused), except inside an open dialog or the item editor, which have their own keys.
 */
export function useRunShortcut(form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || !matches('run', event) || !form.current) return;
      if (document.querySelector('dialog[open]')) return;
      if (event.target instanceof Element && event.target.closest('.item-editor')) return;
      event.preventDefault();
      form.current.requestSubmit();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [form]);
}
