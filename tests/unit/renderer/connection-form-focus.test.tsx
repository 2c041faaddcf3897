// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionForm } from '../../../src/renderer/features/connections/components/connection-form';
import { clickButton, type Harness, openHarness } from './bridge-harness';

// "New connection" rendered in a DOM (happy-dom), the bridge standing in for main: Save and test
// on an empty form says what is missing and puts focus on the first field it names (focus stayed
// on the button, found on the newcomer's keyboard walk).

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve(
      channel === 'aws:profiles' ? { ok: true, value: { profiles: [] } } : { ok: true, value: undefined },
    ),
  );
});

afterEach(() => harness.close());

describe('saving a new connection with fields missing', () => {
  it('moves focus to the first field whose error shows, and saves nothing', async () => {
    await act(() => {
      harness.root.render(<ConnectionForm onClose={() => undefined} onSaved={() => undefined} />);
      return Promise.resolve();
    });
    const name = harness.host.ownerDocument.getElementById('connection-label');
    const save = [...harness.host.ownerDocument.querySelectorAll('button')].find(
      (b) => b.textContent === 'Save and test',
    );
    save?.focus();
    await clickButton(harness.host.ownerDocument.body, 'Save and test');
    expect(harness.host.ownerDocument.querySelector('.field-error')?.textContent).toBe(
      'Give the connection a name you will recognise.',
    );
    expect(harness.host.ownerDocument.activeElement).toBe(name);
    expect(harness.calls.some((call) => call.channel === 'connections:save')).toBe(false);
  });
});
