// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UndoReport } from '../../../src/shared/ipc/journal';
import { CommitToast } from '../../../src/renderer/features/journal/components/commit-toast';
import { type Harness, openHarness, testConnection } from './bridge-harness';
import { counts, emit } from './operation-events';

// The commit's toast (and the editor's and bulk's Undo, the same UndoEntry) after its Undo, in a
// DOM (happy-dom), main's undo ending through the real operations store. Undone, it offered
// nothing more: Redo was only in History, as Undo of the undo's own entry. Here it is the same
// call, on the entry main's report names.

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve(
      channel === 'journal:undo' ? { ok: true, value: { started: true } } : { ok: true, value: undefined },
    ),
  );
});

afterEach(() => harness.close());

const commitId = 'jcommit00001';
const report = (patch: Partial<UndoReport> = {}): UndoReport => ({
  restored: 1,
  alreadyRestored: 0,
  conflicts: 0,
  failed: 0,
  items: [],
  ...patch,
});

function toast(): HTMLElement {
  act(() =>
    harness.root.render(
      <CommitToast
        connection={testConnection('c-toast')}
        message="Committed: 1 item written."
        journalId={commitId}
        onDismiss={() => undefined}
      />,
    ),
  );
  return harness.host;
}

const buttons = (host: HTMLElement) =>
  [...host.querySelectorAll('.undo-entry button')].map((b) => b.getAttribute('aria-label'));

/** Presses the toast's button named `label`; returns the journal entry its undo call names. */
async function press(host: HTMLElement, label: string): Promise<{ entryId: unknown; requestId: unknown }> {
  const button = host.querySelector<HTMLButtonElement>(`.undo-entry button[aria-label="${label}"]`);
  if (!button) throw new Error(`no button ${label}`);
  await act(() => {
    button.click();
    return Promise.resolve();
  });
  const call = harness.calls.filter((c) => c.channel === 'journal:undo').at(-1);
  return { entryId: call?.input.entryId, requestId: call?.input.requestId };
}

function ends(requestId: unknown, value: UndoReport): void {
  act(() => emit(String(requestId), { type: 'done', value, progress: counts(1) }));
}

describe('the commit toast after its Undo', () => {
  it('offers Redo, undoing the undo’s own entry as History does, then Undo of the commit again', async () => {
    const host = toast();
    const undo = await press(host, 'Undo this commit');
    expect(undo.entryId).toBe(commitId);
    ends(undo.requestId, report({ journalId: 'jundo0000001' }));
    expect(host.textContent).toContain('Undo: 1 item put back.');
    expect(buttons(host)).toEqual(['Redo this commit']);

    const redo = await press(host, 'Redo this commit');
    expect(redo.entryId).toBe('jundo0000001');
    ends(redo.requestId, report({ journalId: 'jredo0000001' }));
    expect(host.textContent).toContain('Redo: 1 item put back.');
    expect(buttons(host)).toEqual(['Undo this commit']);
    const again = await press(host, 'Undo this commit');
    expect(again.entryId).toBe(commitId);
  });

  it('offers no Redo after an undo that left items alone, nor when the undo wrote no entry', async () => {
    for (const value of [report({ conflicts: 1, restored: 0, journalId: 'jundo0000002' }), report()]) {
      harness.close();
      harness = openHarness(() => Promise.resolve({ ok: true, value: { started: true } }));
      const host = toast();
      const undo = await press(host, 'Undo this commit');
      ends(undo.requestId, value);
      expect(buttons(host)).toEqual([]);
    }
  });
});
