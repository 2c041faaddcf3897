// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { focusTableList } from '../../../src/renderer/features/workspace/hooks';

/** Frames the test runs by hand, so a keystroke can land between Ctrl+K and the next frame. */
function heldFrames(): () => void {
  const pending: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => pending.push(callback));
  return () => {
    for (const callback of pending.splice(0)) callback(0);
  };
}

/** What typing one character into the focused input does to its text and caret. */
function typeInto(input: HTMLInputElement, text: string): void {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? input.value.length;
  input.value = input.value.slice(0, start) + text + input.value.slice(end);
  input.setSelectionRange(start + text.length, start + text.length);
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('Ctrl+K with the table list on screen', () => {
  it('keeps a character typed before the next frame', () => {
    const runFrames = heldFrames();
    document.body.innerHTML = '<input id="table-filter" type="search" value="orders">';
    const filter = document.getElementById('table-filter') as HTMLInputElement;

    focusTableList();
    expect(document.activeElement).toBe(filter);
    // The old text is selected at once, so the first character replaces it…
    typeInto(filter, 'n');
    // …and a frame that comes late selects nothing the user typed.
    runFrames();
    typeInto(filter, 'o');
    expect(filter.value).toBe('no');
  });

  it('focuses the filter on the next frame when the list is not on screen yet', () => {
    const runFrames = heldFrames();
    focusTableList();
    document.body.innerHTML = '<input id="table-filter" type="search" value="orders">';
    const filter = document.getElementById('table-filter') as HTMLInputElement;
    expect(document.activeElement).not.toBe(filter);
    runFrames();
    expect(document.activeElement).toBe(filter);
    expect([filter.selectionStart, filter.selectionEnd]).toEqual([0, 'orders'.length]);
  });
});
