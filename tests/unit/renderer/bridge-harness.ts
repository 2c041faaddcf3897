import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { Connection } from '../../../src/shared/ipc';
import { BRIDGE_KEY } from '../../../src/shared/ipc/bridge';

/*
 * Main's stand-in for renderer tests in a DOM (happy-dom): the bridge records every call and
 * answers as the test says, and the component renders into a React root on a fresh element.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface BridgeCall {
  channel: string;
  input: Record<string, unknown>;
}

export interface Harness {
  /** Every call the renderer made to main, in order. */
  calls: BridgeCall[];
  root: Root;
  host: HTMLElement;
  /** Unmounts the root, removes its element and the bridge. */
  close(): void;
}

/** Puts the stand-in bridge on the window and a React root in the document. */
export function openHarness(
  answer: (channel: string, input: Record<string, unknown>) => Promise<unknown>,
): Harness {
  const calls: BridgeCall[] = [];
  const bridge = new Proxy(
    {},
    {
      get: (_target, channel: string) => (input: Record<string, unknown>) => {
        calls.push({ channel, input });
        return answer(channel, input);
      },
    },
  );
  (window as unknown as Record<string, unknown>)[BRIDGE_KEY] = bridge;
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  return {
    calls,
    root,
    host,
    close() {
      act(() => root.unmount());
      host.remove();
      Reflect.deleteProperty(window, BRIDGE_KEY);
    },
  };
}

/** Types into an input as a user does: React hears the input event for the new value. */
export function typeInto(input: HTMLInputElement | null, value: string): void {
  if (!input) throw new Error('no input to type into');
  // React tracks the value through the prototype's setter; setting input.value directly goes unheard.
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Clicks the button whose text is `name` under `within`, letting the promise chain behind it run. */
export async function clickButton(within: ParentNode, name: string): Promise<void> {
  const button = [...within.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no ${name} button`);
  await act(() => {
    button.click();
    return Promise.resolve();
  });
}

/** Enter in the field, as a user finishing typing presses it. */
export async function pressEnter(field: HTMLInputElement | null): Promise<void> {
  if (!field) throw new Error('no field to press Enter in');
  await act(() => {
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    return Promise.resolve();
  });
}

/** Chooses the radio whose words are `words` under `within`. */
export function choose(within: ParentNode, words: string): void {
  const radio = [...within.querySelectorAll('label')]
    .find((label) => label.textContent === words)
    ?.querySelector('input');
  if (!radio) throw new Error(`no ${words} choice`);
  act(() => radio.click());
}

/** A writable, non-production connection for a rendered view (read-only or production by `patch`). */
export function testConnection(id: string, patch: Partial<Connection> = {}): Connection {
  return {
    id,
    label: 'Local',
    color: 'blue',
    kind: 'profile',
    region: 'eu-west-1',
    readOnly: false,
    isProduction: false,
    ...patch,
  };
}
