// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoppedJob } from '../../../src/shared/ipc/jobs';
import { ImportDialog } from '../../../src/renderer/features/items/components/import-dialog';
import { type Harness, openHarness, testConnection } from './bridge-harness';

// The import dialog's list of stopped imports, rendered in a DOM (happy-dom), the bridge standing
// in for main. Resume hides the list and Dismiss removes a row: either way the button that was
// pressed leaves the screen, and focus must land somewhere a keyboard user can go on from.

let stopped: StoppedJob[];
let harness: Harness;

const job = (id: string, updatedAt: string): StoppedJob => ({
  kind: 'import',
  id,
  connectionId: 'c-import',
  table: 'Orders',
  state: 'stopped',
  startedAt: updatedAt,
  updatedAt,
  items: 10,
  sentence: `The import of items-${id}.jsonl into Orders stopped when it was cancelled.`,
  canResume: true,
});

beforeEach(() => {
  stopped = [job('job-one', '2026-12-01T10:00:00.000Z'), job('job-two', '2026-12-02T10:00:00.000Z')];
  harness = openHarness((channel, input) => {
    if (channel === 'jobs:stopped')
      return Promise.resolve({ ok: true, value: { jobs: stopped, setAside: [] } });
    if (channel === 'jobs:forget') {
      stopped = stopped.filter((j) => j.id !== input.id);
      return Promise.resolve({ ok: true, value: { forgotten: true } });
    }
    // The resumed import runs in main; its progress comes later.
    return Promise.resolve({ ok: true, value: { started: true } });
  });
});

afterEach(() => harness.close());

const connection = testConnection('c-import');

/** Renders the dialog and lets the stopped list arrive. */
async function open(): Promise<void> {
  await act(() => {
    harness.root.render(<ImportDialog connection={connection} table="Orders" onClose={() => undefined} />);
    return Promise.resolve();
  });
}

const buttonsNamed = (start: string) =>
  [...harness.host.querySelectorAll('button')].filter((b) => b.getAttribute('aria-label')?.startsWith(start));
const focused = () => document.activeElement;
const nameOf = (element: Element | null) =>
  element?.getAttribute('aria-label') ?? element?.textContent.trim() ?? element?.tagName;

async function press(button: HTMLButtonElement | undefined): Promise<void> {
  if (!button) throw new Error('no such button');
  await act(async () => {
    button.focus();
    button.click();
    await Promise.resolve();
  });
}

describe('focus after Resume or Dismiss on a stopped import', () => {
  it('Dismiss moves focus to the row now in its place, and after the last one to the file to import', async () => {
    await open();
    expect(buttonsNamed('Dismiss')).toHaveLength(2);
    await press(buttonsNamed('Dismiss')[0]);
    expect(buttonsNamed('Dismiss')).toHaveLength(1);
    // The second import's Resume, the row that moved up into the pressed one's place.
    expect(nameOf(focused())).toMatch(/^Resume the import stopped /);
    await press(buttonsNamed('Dismiss')[0]);
    expect(harness.host.textContent).not.toContain('did not finish');
    expect(focused()).not.toBe(document.body);
    expect(nameOf(focused())).toBe('Choose file…');
  });

  it('Resume moves focus to where the resumed import shows its progress', async () => {
    await open();
    await press(buttonsNamed('Resume')[1]);
    expect(harness.calls.some((call) => call.channel === 'transfer:resumeImport')).toBe(true);
    expect(harness.host.textContent).not.toContain('did not finish');
    expect(nameOf(focused())).toBe('This import');
    expect(focused()?.textContent).toContain('Importing');
    // The resumed import reads the file it stopped in: the footer asks for no file, and says it goes on.
    const footer = harness.host.querySelector('.dialog-footer');
    expect(footer?.querySelector('.dialog-footer-status')?.textContent).toBe('');
    expect(footer?.querySelector('button')?.textContent).toBe('Close (the import goes on)');
  });
});
